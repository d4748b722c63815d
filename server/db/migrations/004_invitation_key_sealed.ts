import type { Kysely, Migration } from 'kysely';

/**
 * An invitation's key sealed under the server secret, so that an admin can copy the link that was
 * mailed (docs/decisions/027). Nullable: invitations stored before have none and are resent instead.
 */
export function invitationKeySealedMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('invitations').addColumn('key_sealed', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('invitations').dropColumn('key_sealed').execute();
    },
  };
}
