import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect';
import { columnsFor, createTable, index } from './helpers';

/**
 * Self-service billing (docs/billing.md, docs/decisions/069).
 * - `billing_events`: the payment provider's events already handled, by their id: a delivery seen
 *   before answers 2xx and changes nothing (Stripe delivers at least once).
 * - `subscriptions.suspended_at`: when the service of a customer whose payment did not come back was
 *   suspended (its instances archived); cleared when a payment restores it, so each step runs once.
 *   A provider customer belongs to one portal customer (the unique index also serves the webhook's
 *   lookup).
 * - `test_checkout_*`: the state of the built-in test checkout, the small emulation of Stripe used
 *   when no Stripe keys are set: its sessions (checkout, billing portal, new card), its subscriptions,
 *   and the secret its events are signed with when none is configured (sealed under the server secret).
 */
export function billingMigration(dialect: DialectName): Migration {
  const { id, bool } = columnsFor(dialect);
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'billingEvents', (t) =>
        t
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull()),
      );
      await db.schema.alterTable('subscriptions').addColumn('suspended_at', 'text').execute();
      await db.schema
        .createIndex('subscriptions_provider_customer_id_idx')
        .on('subscriptions')
        .column('provider_customer_id')
        .unique()
        .execute();
      await createTable(db, 'testCheckoutSubscriptions', (t) =>
        t
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
          .addColumn('provider_customer_id', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('cancel_at_period_end', 'integer', bool(0))
          .addColumn('current_period_start', 'text', (c) => c.notNull())
          .addColumn('current_period_end', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull()),
      );
      await index(db, 'test_checkout_subscriptions', ['provider_customer_id']);
      await index(db, 'test_checkout_subscriptions', ['customer_id']);
      await createTable(db, 'testCheckoutSessions', (t) =>
        t
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
          .addColumn('provider_customer_id', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('subscription_id', 'text')
          .addColumn('amount_cents', 'integer', (c) => c.notNull())
          .addColumn('currency', 'text', (c) => c.notNull())
          .addColumn('return_url', 'text', (c) => c.notNull())
          .addColumn('cancel_url', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull()),
      );
      await index(db, 'test_checkout_sessions', ['customer_id']);
      await createTable(db, 'testCheckoutSecrets', (t) =>
        t
          .addColumn('id', 'integer', id)
          .addColumn('secret_sealed', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull()),
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('test_checkout_secrets').execute();
      await db.schema.dropTable('test_checkout_sessions').execute();
      await db.schema.dropTable('test_checkout_subscriptions').execute();
      await db.schema.dropIndex('subscriptions_provider_customer_id_idx').execute();
      await db.schema.alterTable('subscriptions').dropColumn('suspended_at').execute();
      await db.schema.dropTable('billing_events').execute();
    },
  };
}
