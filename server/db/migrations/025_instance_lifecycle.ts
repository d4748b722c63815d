import { type Kysely, type Migration, sql } from 'kysely';
import { createTable, index } from './helpers';

/**
 * The lifecycle of cloud instances (docs/instances.md, docs/decisions/068):
 * - `archived_at` and `archived_for` say when and why the archive in force began: a data deletion
 *   queued for an earlier archive (the instance was restored, then archived again) finds another
 *   moment and does nothing, and a payment that comes back restores only what non-payment archived.
 * - `instance_callbacks` keeps the event id of each orchestrator callback applied, so a replayed one
 *   changes nothing; rows older than the signature's tolerance are purged (they cannot be replayed).
 *
 * The reasons are frozen here (a migration that ran does not change); constraints.ts declares the
 * same CHECK from common/domain.ts, and its test compares the two on a migrated database.
 */
const ARCHIVE_REASONS = ['unpaid', 'staff'];

export function instanceLifecycleMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('cloud_instances').addColumn('archived_at', 'text').execute();
      const allowed = sql.join(ARCHIVE_REASONS.map((reason) => sql.lit(reason)));
      await sql`alter table cloud_instances add column archived_for text constraint "cloud_instances_archived_for_check" check (archived_for in (${allowed}))`.execute(
        db,
      );
      // the instances of a customer by status (the grace chain archives and restores them); it also
      // leads the foreign key, so the index on customer_id alone goes
      await index(db, 'cloud_instances', ['customer_id', 'status']);
      await db.schema.dropIndex('cloud_instances_customer_id_idx').ifExists().execute();
      await createTable(db, 'instanceCallbacks', (t) =>
        t
          .addColumn('event_id', 'text', (c) => c.primaryKey())
          .addColumn('instance_id', 'integer', (c) => c.notNull().references('cloud_instances.id').onDelete('cascade'))
          .addColumn('received_at', 'text', (c) => c.notNull()),
      );
      await index(db, 'instance_callbacks', ['instance_id']);
      await index(db, 'instance_callbacks', ['received_at']);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('instance_callbacks').execute();
      await index(db, 'cloud_instances', ['customer_id']);
      await db.schema.dropIndex('cloud_instances_customer_id_status_idx').execute();
      await db.schema.alterTable('cloud_instances').dropColumn('archived_for').execute();
      await db.schema.alterTable('cloud_instances').dropColumn('archived_at').execute();
    },
  };
}
