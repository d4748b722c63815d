import type { Kysely, Migration } from 'kysely';
import { index } from './helpers';

/**
 * A customer's recent actions filtered by one action, newest first (docs/decisions/029): without
 * this index the filter walks the customer's whole log to find the few entries of a rare action. The
 * id ends it, so the order of the page (created_at, then id) is the index's and nothing is sorted.
 */
export function auditByActionMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await index(db, 'audit_log', ['customer_id', 'action', 'created_at', 'id']);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('audit_log_customer_id_action_created_at_id_idx').ifExists().execute();
    },
  };
}
