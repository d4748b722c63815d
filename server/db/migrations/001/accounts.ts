import { type Kysely, sql } from 'kysely';
import { NOTIFICATION_SETTINGS } from '../../../../common/domain';
import { snake } from '../../constraints';
import { type Columns, createTable, index } from '../helpers';

/** Users and what belongs to signing in; customers, their members and invitations. */
export async function createAccounts(db: Kysely<any>, { id, bool }: Columns) {
  await createTable(db, 'users', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
      .addColumn('preferred_locale', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('password_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('last_login_at', 'text'),
  );
  // One account per address whatever its case; look-ups say lower(email) = lower(?) to use it.
  await db.schema
    .createIndex('users_email_lower_unique')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .execute();

  await createTable(db, 'sessions', (t) =>
    t
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text'),
  );
  await index(db, 'sessions', ['user_id']);

  await createTable(db, 'passwordResetTokens', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text'),
  );
  await index(db, 'password_reset_tokens', ['user_id']);

  await createTable(db, 'loginAttempts', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('success', 'integer', bool(0))
      .addColumn('created_at', 'text', (c) => c.notNull()),
  );
  await index(db, 'login_attempts', ['email', 'created_at']);
  await index(db, 'login_attempts', ['ip', 'created_at']);

  await createTable(db, 'usedCaptchas', (t) =>
    t.addColumn('signature', 'text', (c) => c.primaryKey()).addColumn('expires_at', 'text', (c) => c.notNull()),
  );

  await createTable(db, 'customers', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('customer_key', 'text', (c) => c.notNull().unique())
      .addColumn('self_service', 'integer', bool(0))
      // no payment status: it lives in subscriptions.status only
      .addColumn('billing_email', 'text')
      .addColumn('crm_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull()),
  );
  await index(db, 'customers', ['name']);

  await createTable(db, 'memberships', (t) => {
    let table = t
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'));
    for (const flag of NOTIFICATION_SETTINGS) table = table.addColumn(snake(flag), 'integer', bool(1));
    // the unique pair also serves "memberships of a user"
    return table
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('memberships_user_customer_unique', ['user_id', 'customer_id']);
  });
  await index(db, 'memberships', ['customer_id']);

  await createTable(db, 'invitations', (t) =>
    t
      .addColumn('id', 'integer', id)
      // sha256 of the key, like reset tokens: a leaked database holds no usable invitation link
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
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
      .addColumn('created_at', 'text', (c) => c.notNull()),
  );
  await index(db, 'invitations', ['customer_id']);
  await index(db, 'invitations', ['inviter_id']);
  await index(db, 'invitations', ['accepted_user_id']);
  await db.schema
    .createIndex('invitations_email_lower_idx')
    .on('invitations')
    .expression(sql`lower(invited_email)`)
    .execute();
  // At most one pending invitation per customer and address (an expired one is still pending:
  // it is resent, not duplicated).
  await db.schema
    .createIndex('invitations_pending_unique')
    .on('invitations')
    .unique()
    .expression(sql`customer_id, lower(invited_email)`)
    .where(sql<boolean>`state = 'pending'`)
    .execute();
}
