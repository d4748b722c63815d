import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect';
import { columnsFor, createTable, index } from './helpers';

/**
 * Changes of one's own e-mail wait for the link sent to the new address (docs/decisions/018). The
 * new address is not unique here: a request reserves nothing, and the users table decides at
 * confirmation.
 */
export function emailChangeMigration(dialect: DialectName): Migration {
  const { id } = columnsFor(dialect);
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'emailChangeTokens', (t) =>
        t
          .addColumn('id', 'integer', id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('new_email', 'text', (c) => c.notNull())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text'),
      );
      await index(db, 'email_change_tokens', ['user_id']);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('email_change_tokens').ifExists().execute();
    },
  };
}
