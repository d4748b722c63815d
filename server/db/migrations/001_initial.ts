import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect';
import { createActivity } from './001/activity';
import { createAccounts } from './001/accounts';
import { createLicensing } from './001/licensing';
import { columnsFor } from './helpers';

/**
 * The whole model of spec section 3, on SQLite and PostgreSQL alike. Edited in place until the first
 * release (docs/decisions/008-data-model.md); after it, changes go into new migrations.
 */
export function initialMigration(dialect: DialectName): Migration {
  const columns = columnsFor(dialect);
  return {
    async up(db: Kysely<any>) {
      await createAccounts(db, columns);
      await createLicensing(db, columns);
      await createActivity(db, columns);
    },
    async down(db: Kysely<any>) {
      for (const table of [
        'mail_outbox',
        'notifications',
        'audit_log',
        'payments',
        'subscriptions',
        'cloud_instances',
        'downloads',
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
