import type { Kysely, Migration } from 'kysely';

/**
 * A mail's body is sealed under the server secret while it waits, and dropped once delivered
 * (docs/decisions/083): a copy of the database holds no working link. The bodies of mails already
 * sent or failed go now; those still waiting (or kept by the local mailbox) are sealed by the next
 * start, which has the secret (server/mail/body.ts). The answers kept for Idempotency-Key replays
 * are sealed from now on too; the plain ones stored before go (a replay within the day after the
 * upgrade is then taken as a new request).
 */
export function mailBodiesSealedMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('mail_outbox').addColumn('body_sealed', 'text').execute();
      await db
        .updateTable('mail_outbox')
        .set({ text_body: '', html_body: null })
        .where('status', '<>', 'pending')
        .execute();
      await db.deleteFrom('idempotency_keys').execute();
    },
    async down(db: Kysely<any>) {
      // the sealed bodies need the secret to open: the mails still waiting go with the column
      await db.schema.alterTable('mail_outbox').dropColumn('body_sealed').execute();
      await db.deleteFrom('idempotency_keys').execute();
    },
  };
}
