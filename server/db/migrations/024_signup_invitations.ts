import { type Kysely, type Migration, sql } from 'kysely';
import { withChecks } from '../constraints';
import type { DialectName } from '../dialect';
import { columnsFor, index } from './helpers';

/**
 * Self-service sign-ups (docs/decisions/067) are invitations without a customer until they are
 * confirmed: `invitations.customer_id` becomes nullable. And one address has at most one pending
 * sign-up, whatever its case, so two sign-ups racing with one address store one row: a unique index
 * on lower(invited_email) of the pending self-service rows.
 *
 * PostgreSQL drops the NOT NULL in place. SQLite cannot: the table is rebuilt (created anew, copied,
 * the old one dropped, the new one renamed, its indexes made again), in one transaction, since
 * SQLite runs migrations outside of one. No table refers to invitations, so the foreign keys stay on.
 */
export function signupInvitationsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`alter table invitations alter column customer_id drop not null`.execute(db);
        await signupIndex(db);
        return;
      }
      await db.transaction().execute(async (trx) => {
        await rebuild(trx, dialect, 'nullable');
        await signupIndex(trx);
      });
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('invitations_signup_pending_unique').ifExists().execute();
      // Sign-ups not yet confirmed have no customer and cannot stay.
      await db.deleteFrom('invitations').where('customer_id', 'is', null).execute();
      if (dialect === 'postgres') {
        await sql`alter table invitations alter column customer_id set not null`.execute(db);
        return;
      }
      await db.transaction().execute((trx) => rebuild(trx, dialect, 'required'));
    },
  };
}

async function signupIndex(db: Kysely<any>) {
  await db.schema
    .createIndex('invitations_signup_pending_unique')
    .on('invitations')
    .unique()
    .expression(sql`lower(invited_email)`)
    .where(sql<boolean>`state = 'pending' and self_service = 1`)
    .execute();
}

const COLUMNS = [
  'id',
  'key_hash',
  'customer_id',
  'inviter_id',
  'invited_email',
  'invited_full_name',
  'role',
  'locale',
  'state',
  'self_service',
  'signup_data',
  'sent_at',
  'expires_at',
  'accepted_at',
  'accepted_user_id',
  'created_at',
  'key_sealed',
];

/** SQLite: the invitations table of migrations 001 and 004, with `customer_id` as `customer`. */
async function rebuild(db: Kysely<any>, dialect: DialectName, customer: 'nullable' | 'required') {
  const { id, bool } = columnsFor(dialect);
  await db.schema
    .createTable('invitations_rebuilt')
    .addColumn('id', 'integer', id)
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'integer', (c) => {
      const column = c.references('customers.id').onDelete('cascade');
      return customer === 'required' ? column.notNull() : column;
    })
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
    .addColumn('key_sealed', 'text')
    .$call(withChecks('invitations'))
    .execute();
  const columns = sql.join(COLUMNS.map((name) => sql.ref(name)));
  await sql`insert into invitations_rebuilt (${columns}) select ${columns} from invitations`.execute(db);
  await db.schema.dropTable('invitations').execute();
  await db.schema.alterTable('invitations_rebuilt').renameTo('invitations').execute();
  await index(db, 'invitations', ['customer_id']);
  await index(db, 'invitations', ['inviter_id']);
  await index(db, 'invitations', ['accepted_user_id']);
  await db.schema
    .createIndex('invitations_email_lower_idx')
    .on('invitations')
    .expression(sql`lower(invited_email)`)
    .execute();
  // At most one pending invitation per customer and address (migration 001).
  await db.schema
    .createIndex('invitations_pending_unique')
    .on('invitations')
    .unique()
    .expression(sql`customer_id, lower(invited_email)`)
    .where(sql<boolean>`state = 'pending'`)
    .execute();
}
