import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect';

/** The whole model of spec section 3, on SQLite and PostgreSQL alike. */
export function initialMigration(dialect: DialectName): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const bool = (def: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(def);

  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', id)
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('full_name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
        .addColumn('preferred_locale', 'text', (c) => c.notNull().defaultTo('en'))
        .addColumn('password_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('last_login_at', 'text')
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('password_reset_tokens')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('login_attempts')
        .addColumn('id', 'integer', id)
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('success', 'integer', bool(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_attempts_email_idx')
        .on('login_attempts')
        .columns(['email', 'created_at'])
        .execute();
      await db.schema.createIndex('login_attempts_ip_idx').on('login_attempts').columns(['ip', 'created_at']).execute();

      await db.schema
        .createTable('used_captchas')
        .addColumn('signature', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('customers')
        .addColumn('id', 'integer', id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('customer_key', 'text', (c) => c.notNull().unique())
        .addColumn('self_service', 'integer', bool(0))
        .addColumn('payment_status', 'text')
        .addColumn('billing_email', 'text')
        .addColumn('crm_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('customers_name_idx').on('customers').column('name').execute();

      let memberships = db.schema
        .createTable('memberships')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'));
      for (const flag of [
        'notify_license_expires_soon',
        'notify_license_expired',
        'notify_product_download',
        'notify_invitation_accepted',
        'notify_new_version',
        'notify_new_product_license',
        'notify_first_product_download',
        'notify_email_error',
      ]) {
        memberships = memberships.addColumn(flag, 'integer', bool(1));
      }
      await memberships
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('memberships_user_customer_unique', ['user_id', 'customer_id'])
        .execute();
      await db.schema.createIndex('memberships_customer_idx').on('memberships').column('customer_id').execute();

      await db.schema
        .createTable('invitations')
        .addColumn('id', 'integer', id)
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
        .addColumn('inviter_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('invited_email', 'text', (c) => c.notNull())
        .addColumn('invited_full_name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('self_service', 'integer', bool(0))
        .addColumn('signup_data', 'text')
        .addColumn('sent_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('accepted_at', 'text')
        .addColumn('accepted_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('invitations_customer_idx').on('invitations').column('customer_id').execute();
      await db.schema.createIndex('invitations_email_idx').on('invitations').column('invited_email').execute();

      await db.schema
        .createTable('products')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('customization_type', 'text', (c) => c.notNull().defaultTo('none'))
        .addColumn('is_saas', 'integer', bool(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('versions')
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
        .addUniqueConstraint('versions_product_semver_unique', ['product_key', 'sem_ver'])
        .execute();

      await db.schema
        .createTable('artifacts')
        .addColumn('id', 'integer', id)
        .addColumn('version_id', 'integer', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('artifacts_version_platform_unique', ['version_id', 'platform'])
        .execute();

      await db.schema
        .createTable('customizations')
        .addColumn('id', 'integer', id)
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
        .addColumn('product_key', 'text', (c) => c.notNull().references('products.key'))
        .addColumn('version_type', 'text', (c) => c.notNull().defaultTo('stable'))
        .addColumn('custom_config', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', bool(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('licences')
        .addColumn('id', 'integer', id)
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
        .addColumn('product_key', 'text', (c) => c.notNull().references('products.key'))
        .addColumn('is_saas', 'integer', bool(0))
        .addColumn('has_entity_resolution', 'integer', bool(0))
        .addColumn('access_level', 'text', (c) => c.notNull().defaultTo('stable'))
        .addColumn('start_date', 'text', (c) => c.notNull())
        .addColumn('end_date', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('download_secret', 'text', (c) => c.notNull().unique())
        .addColumn('customization_id', 'integer', (c) => c.references('customizations.id').onDelete('set null'))
        .addColumn('latest_download_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('licences_customer_idx').on('licences').column('customer_id').execute();

      await db.schema
        .createTable('cloud_instances')
        .addColumn('id', 'integer', id)
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('tier', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('creating'))
        .addColumn('url', 'text')
        .addColumn('delete_data_delay_in_days', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('subscriptions')
        .addColumn('id', 'integer', id)
        .addColumn('customer_id', 'integer', (c) => c.notNull().unique().references('customers.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('provider_customer_id', 'text')
        .addColumn('provider_subscription_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('current_period_end', 'text')
        .addColumn('grace_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('payments')
        .addColumn('id', 'integer', id)
        .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
        .addColumn('provider_session_id', 'text', (c) => c.notNull().unique())
        .addColumn('amount_cents', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'integer', id)
        .addColumn('customer_id', 'integer', (c) => c.references('customers.id').onDelete('cascade'))
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('actor_email', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('audit_log_customer_idx')
        .on('audit_log')
        .columns(['customer_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('notifications')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('unread'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'integer', id)
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text')
        .addColumn('template', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema
        .createIndex('mail_outbox_due_idx')
        .on('mail_outbox')
        .columns(['status', 'next_attempt_at'])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of [
        'mail_outbox',
        'notifications',
        'audit_log',
        'payments',
        'subscriptions',
        'cloud_instances',
        'licences',
        'customizations',
        'artifacts',
        'versions',
        'products',
        'invitations',
        'memberships',
        'customers',
        'used_captchas',
        'login_attempts',
        'password_reset_tokens',
        'sessions',
        'users',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
