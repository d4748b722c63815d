import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';
import { columnsFor, createTable } from './helpers';

/**
 * Signed webhooks (docs/webhooks.md, docs/decisions/066): the endpoints admins register, each with
 * the events it receives (a JSON array) and its signing secret sealed under the server secret, and
 * one delivery row per event and endpoint, which its job updates at every attempt. Deleting an
 * endpoint deletes its deliveries. The admin page lists an endpoint's deliveries newest first: the
 * index gives that order (created_at, then id for the deliveries of one instant), so a page is an
 * index walk whatever the endpoint's history; it also serves the foreign key's cascade.
 */
export function webhooksMigration(dialect: DialectName): Migration {
  const { id, bool } = columnsFor(dialect);
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'webhookEndpoints', (t) =>
        t
          .addColumn('id', 'integer', id)
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('events', 'text', (c) => c.notNull())
          .addColumn('secret_sealed', 'text', (c) => c.notNull())
          .addColumn('enabled', 'integer', bool(1))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull()),
      );
      await createTable(db, 'webhookDeliveries', (t) =>
        t
          .addColumn('id', 'integer', id)
          .addColumn('endpoint_id', 'integer', (c) =>
            c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
          )
          .addColumn('event_id', 'text', (c) => c.notNull())
          .addColumn('event_type', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('response_status', 'integer')
          .addColumn('response_ms', 'integer')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('delivered_at', 'text'),
      );
      await sql`create index webhook_deliveries_endpoint_id_created_at_id_idx on webhook_deliveries (endpoint_id, created_at desc, id desc)`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('webhook_deliveries').execute();
      await db.schema.dropTable('webhook_endpoints').execute();
    },
  };
}
