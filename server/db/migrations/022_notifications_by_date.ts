import type { Kysely, Migration } from 'kysely';
import { index } from './helpers';

/**
 * The notification centre lists a user's notifications newest first, read and unread together: this
 * index gives that order (created_at, then id for the notifications of one instant), so a page is an
 * index walk that stops after its rows, whatever the user's history. The (user_id, status,
 * created_at) index of migration 001 still serves the unread count and marking all read.
 */
export function notificationsByDateMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await index(db, 'notifications', ['user_id', 'created_at', 'id']);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('notifications_user_id_created_at_id_idx').ifExists().execute();
    },
  };
}
