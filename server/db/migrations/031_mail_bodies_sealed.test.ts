import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealPlainOutboxBodies } from '../../mail/body';
import { createTestApp, type TestApp } from '../../test/harness';
import { withText } from '../../test/outbox';
import { mailBodiesSealedMigration } from './031_mail_bodies_sealed';

// A database of before migration 031 kept every mail's text in the clear: the migration clears the
// bodies of mails sent or failed, and the next start seals those still waiting (decision 083).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const LINK = 'http://portal.test/en/reset-password/a-token-from-before-the-migration-000';

describe('migration 031', () => {
  it("clears the sent and failed mails' bodies, and the start seals the waiting ones", async () => {
    const db = t.database.db as unknown as Kysely<any>;
    const migration = mailBodiesSealedMigration();
    await migration.down!(db);
    for (const status of ['sent', 'failed', 'pending'] as const) {
      await db
        .insertInto('mail_outbox')
        .values({
          to_address: `${status}@example.com`,
          subject: 'Reset your password',
          text_body: `Choose a password: ${LINK}`,
          html_body: `<a href="${LINK}">Choose</a>`,
          template: 'passwordReset',
          status,
          attempts: status === 'pending' ? 0 : 1,
          created_at: new Date().toISOString(),
        })
        .execute();
    }
    await migration.up(db);

    const rows = () => t.app.ctx.db.selectFrom('mailOutbox').selectAll().orderBy('id').execute();
    const [sent, failed, pending] = await rows();
    for (const row of [sent, failed]) {
      expect(row).toMatchObject({ textBody: '', htmlBody: null, bodySealed: null });
    }
    expect(pending.textBody).toContain(LINK);

    expect(await sealPlainOutboxBodies(t.app.ctx.db, t.config.sessionSecret)).toBe(1);
    const after = await rows();
    expect(JSON.stringify(after)).not.toContain('reset-password');
    expect(withText(t.app.ctx)(after[2]).textBody).toBe(`Choose a password: ${LINK}`);
  });
});
