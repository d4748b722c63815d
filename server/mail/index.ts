import type { Config } from '../config';
import type { Logger } from '../context';
import type { MailMetrics } from '../metrics';
import { type DB, nowIso } from '../db';
import type { JobRunner } from '../jobs/types';
import { coalesce } from '../db/coalesce';
import {
  insertOutboxMail,
  markMailAttemptFailed,
  markMailFailed,
  markMailsSent,
  type OutboxMail,
  outboxMail,
  outboxMails,
} from './store';
import { openMailBody, sealMailBody } from './body';
import { renderMail } from './templates';
import { localTransport, smtpTransport, type Transport } from './transport';
import type { Mailer } from './types';

/** The job that delivers one outbox mail (server/job-kinds.ts declares it). */
export const MAIL_DELIVERY_JOB = 'mail.deliver';

declare module '../jobs/types' {
  interface QueuedJobs {
    [MAIL_DELIVERY_JOB]: { mailId: number };
  }
}

const UNREADABLE_BODY = "The mail's text opens under none of the secrets (SESSION_SECRET, SESSION_SECRET_PREVIOUS)";

/**
 * An SMTP answer that no retry will change (5xx: no such mailbox, refused by policy). Any other
 * failure (a 4xx, a connection that fails or times out) is worth another attempt later.
 */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * The mailer: send() renders the mail, stores it in the outbox and queues its delivery job, all in the
 * caller's transaction, so a mail survives a restart or an SMTP outage and exists only if the change
 * it tells of does. The job (deliver) hands it to SMTP, or keeps it for the local mailbox page, and is
 * retried with backoff (decision 063). The body is sealed in the outbox and dropped once the SMTP
 * peer accepted it or it failed for good (decision 083): the local mailbox keeps it, sealed, for its page.
 *
 * A mail is delivered at least once: a process killed after the SMTP peer accepted a mail but before
 * the row was marked sent delivers it again when its job is retried. The replay carries the same
 * Message-ID (made from the row), by which mail servers and clients drop the duplicate.
 */
export function createMailer(deps: {
  config: Config;
  db: DB;
  log: Logger;
  jobs: Pick<JobRunner, 'enqueue'>;
  /**
   * Told when a mail cannot be delivered (refused for good, or its last attempt failed), in the
   * transaction that fails it (notifyEmailError).
   */
  onUndeliverable?: (executor: DB, mail: { to: string; template: string; error: string }) => Promise<void>;
  /** counts the mails delivered and the failed attempts */
  metrics?: MailMetrics;
  /** where mails go; from the configuration otherwise (tests give their own) */
  transport?: Transport;
}): Mailer {
  const { config, db, jobs } = deps;
  const transport: Transport =
    deps.transport ?? (config.smtpUrl ? smtpTransport(config.smtpUrl) : localTransport(deps.log));
  const domain = new URL(config.baseUrl).hostname;
  // Deliveries running side by side read their rows and mark them sent a statement for many
  // (decision 075): the statements, not the mails, are what a backlog costs the database.
  const readMail = coalesce<number, OutboxMail>(
    async (ids) => new Map((await outboxMails(db, ids)).map((row) => [row.id, row])),
  );
  const keepBodies = transport.kind === 'local';
  const markSent = coalesce<number>((ids) => markMailsSent(db, ids, keepBodies));

  /** Fails a mail for good, in the transaction that tells of it (notifyEmailError). */
  const failForGood = (mailId: number, row: OutboxMail, message: string) =>
    db.transaction().execute(async (trx) => {
      await markMailAttemptFailed(trx, mailId, { lastError: message, final: true });
      await deps.onUndeliverable?.(trx, { to: row.toAddress, template: row.template, error: message });
    });

  return {
    async send(request, executor = db) {
      const mail = renderMail(request);
      const mailId = await insertOutboxMail(executor, {
        toAddress: request.to,
        subject: mail.subject,
        bodySealed: sealMailBody(config.sessionSecret, { text: mail.text, html: mail.html }),
        template: request.template,
        listUnsubscribe: mail.listUnsubscribe,
        now: nowIso(),
      });
      await jobs.enqueue(executor, MAIL_DELIVERY_JOB, { mailId });
    },

    async deliver(mailId) {
      const row = await readMail(mailId);
      // sent by an earlier attempt whose completion was lost, or deleted: nothing to do
      if (!row || row.status !== 'pending') return 'skipped';
      const body = openMailBody(config.sealSecrets, row);
      if (!body) {
        // restored or moved under another SESSION_SECRET: no attempt will ever open it
        deps.metrics?.mailFailures.inc();
        await failForGood(mailId, row, UNREADABLE_BODY);
        return 'refused';
      }
      try {
        await transport.deliver({
          from: config.mailFrom,
          to: row.toAddress,
          subject: row.subject,
          text: body.text,
          html: body.html,
          listUnsubscribe: row.listUnsubscribe,
          messageId: `<mail-${row.id}.${Date.parse(row.createdAt)}@${domain}>`,
        });
      } catch (error) {
        deps.metrics?.mailFailures.inc();
        const permanent = isPermanent(error);
        const message = error instanceof Error ? error.message : String(error);
        if (!permanent) {
          await markMailAttemptFailed(db, mailId, { lastError: message, final: false });
          throw error;
        }
        await failForGood(mailId, row, message);
        return 'refused';
      }
      deps.metrics?.mailsSent.inc();
      await markSent(mailId);
      return 'sent';
    },

    async gaveUp(mailId, error) {
      await db.transaction().execute(async (trx) => {
        const row = await outboxMail(trx, mailId);
        if (!row || row.status !== 'pending') return;
        await markMailFailed(trx, mailId, error);
        await deps.onUndeliverable?.(trx, { to: row.toAddress, template: row.template, error });
      });
    },

    async close() {
      transport.close();
    },
  };
}
