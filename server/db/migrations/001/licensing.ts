import type { Kysely } from 'kysely';
import { type Columns, createTable, index } from '../helpers';

/** The catalogue, licences and their downloads, cloud instances and billing. */
export async function createLicensing(db: Kysely<any>, { id, bool }: Columns) {
  await createTable(db, 'products', (t) =>
    t
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('customization_type', 'text', (c) => c.notNull().defaultTo('none'))
      // the only place isSaas is stored: a licence shows its product's
      .addColumn('is_saas', 'integer', bool(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull()),
  );

  // the unique pair also serves "versions of a product"
  await createTable(db, 'versions', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('product_key', 'text', (c) => c.notNull().references('products.key').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull().defaultTo('stable'))
      .addColumn('sem_ver', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('release_date', 'text')
      .addColumn('published', 'integer', bool(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('versions_product_semver_unique', ['product_key', 'sem_ver']),
  );

  // the unique pair also serves "artifacts of a version"
  await createTable(db, 'artifacts', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('version_id', 'integer', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('artifacts_version_platform_unique', ['version_id', 'platform']),
  );

  await createTable(db, 'customizations', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('product_key', 'text', (c) => c.notNull().references('products.key'))
      .addColumn('version_type', 'text', (c) => c.notNull().defaultTo('stable'))
      .addColumn('custom_config', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', bool(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull()),
  );
  await index(db, 'customizations', ['customer_id', 'product_key']);
  await index(db, 'customizations', ['product_key']);

  await createTable(db, 'licences', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('product_key', 'text', (c) => c.notNull().references('products.key'))
      .addColumn('has_entity_resolution', 'integer', bool(0))
      .addColumn('access_level', 'text', (c) => c.notNull().defaultTo('stable'))
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('end_date', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('download_secret', 'text', (c) => c.notNull().unique())
      .addColumn('customization_id', 'integer', (c) => c.references('customizations.id').onDelete('set null'))
      // no latest_download_at: the downloads table answers it with an index
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull()),
  );
  // (customer, product) serves a customer's licences and "first download of a product by a customer"
  await index(db, 'licences', ['customer_id', 'product_key']);
  await index(db, 'licences', ['product_key']);
  await index(db, 'licences', ['customization_id']);

  await createTable(db, 'downloads', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('licence_id', 'integer', (c) => c.notNull().references('licences.id').onDelete('cascade'))
      .addColumn('version_id', 'integer', (c) => c.notNull().references('versions.id').onDelete('cascade'))
      // a replaced artifact leaves the record of its downloads; the version still says what it was
      .addColumn('artifact_id', 'integer', (c) => c.references('artifacts.id').onDelete('set null'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('ip', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull()),
  );
  await index(db, 'downloads', ['licence_id', 'created_at']);
  await index(db, 'downloads', ['version_id']);
  await index(db, 'downloads', ['artifact_id']);
  await index(db, 'downloads', ['user_id']);

  await createTable(db, 'cloudInstances', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('tier', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('creating'))
      .addColumn('url', 'text')
      .addColumn('delete_data_delay_in_days', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull()),
  );
  await index(db, 'cloud_instances', ['customer_id']);

  // one subscription per customer (its unique customer_id is also the index); its status is the
  // customer's payment status
  await createTable(db, 'subscriptions', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('customer_id', 'integer', (c) => c.notNull().unique().references('customers.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_customer_id', 'text')
      .addColumn('provider_subscription_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('current_period_end', 'text')
      .addColumn('grace_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull()),
  );

  await createTable(db, 'payments', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('provider_session_id', 'text', (c) => c.notNull().unique())
      .addColumn('amount_cents', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull()),
  );
  await index(db, 'payments', ['customer_id', 'created_at']);
}
