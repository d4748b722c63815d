import type { Kysely } from 'kysely';
import { type Columns, createTable, index } from '../helpers';

/** What happened and what is told: the audit log, notifications, the mail outbox. */
export async function createActivity(db: Kysely<any>, { id }: Columns) {
  await createTable(db, 'auditLog', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('customer_id', 'integer', (c) => c.references('customers.id').onDelete('cascade'))
      .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('actor_email', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'text', (c) => c.notNull()),
  );
  // a customer's recent actions, newest first; the id orders entries of one instant (decision 029)
  await index(db, 'audit_log', ['customer_id', 'created_at', 'id']);
  await index(db, 'audit_log', ['actor_id', 'created_at']);

  // a message key and its parameters, rendered in the reader's language when read
  await createTable(db, 'notifications', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('message_key', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('unread'))
      .addColumn('created_at', 'text', (c) => c.notNull()),
  );
  // the notification centre: a user's notifications (unread first or all), newest first
  await index(db, 'notifications', ['user_id', 'status', 'created_at']);

  await createTable(db, 'mailOutbox', (t) =>
    t
      .addColumn('id', 'integer', id)
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text_body', 'text', (c) => c.notNull())
      .addColumn('html_body', 'text')
      .addColumn('template', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_by', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text'),
  );
  await index(db, 'mail_outbox', ['status', 'next_attempt_at']);
}
