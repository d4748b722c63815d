import type { Kysely, Migration } from 'kysely';
import { createTable, index } from './helpers';

/**
 * The support desk's sign-on and the CRM sync (docs/decisions/072, 073).
 * - `support_jwt_ids`: the id (`jti`) of every token handed to the support desk, kept until the token
 *   has expired, so that no id is ever issued twice and an operator can tell which hand-offs were made;
 *   a scheduled job purges the expired ones.
 * - `customers.crm_synced_at`: when the customer was last pushed to the CRM (its id there is
 *   `crm_id`, which the first migration already has).
 */
export function supportDeskAndCrmMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'supportJwtIds', (t) =>
        t
          .addColumn('jti', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('issued_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull()),
      );
      await index(db, 'support_jwt_ids', ['expires_at']);
      // the user's ids go with the user (on delete cascade)
      await index(db, 'support_jwt_ids', ['user_id']);
      await db.schema.alterTable('customers').addColumn('crm_synced_at', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('customers').dropColumn('crm_synced_at').execute();
      await db.schema.dropTable('support_jwt_ids').execute();
    },
  };
}
