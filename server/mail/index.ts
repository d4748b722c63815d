import type { Config } from '../config';
import type { Logger } from '../context';
import { type DB, nowIso } from '../db';
import { deliverDueMails } from './outbox';
import { renderMail } from './templates';
import { localTransport, smtpTransport, type Transport } from './transport';
import type { Mailer } from './types';

/**
 * The mailer: send() renders the mail and stores it in the outbox, so a mail survives a restart or an
 * SMTP outage; flush() delivers due mails over SMTP, or keeps them for the local mailbox page. A
 * scheduled job calls flush (server/jobs); `onQueued` tells it a mail is waiting.
 */
export function createMailer(deps: { config: Config; db: DB; log: Logger; onQueued?: () => void }): Mailer {
  const { config, db, log } = deps;
  const transport: Transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : localTransport(log);
  let inFlight: Promise<number> | null = null;
  let again = false;

  function flush(): Promise<number> {
    if (inFlight) {
      // A mail stored while a pass runs may have been missed by its query: run one more pass.
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      let total = 0;
      do {
        again = false;
        total += await deliverDueMails({ db, transport, from: config.mailFrom });
      } while (again);
      return total;
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  return {
    async send(request, trx = db) {
      const mail = renderMail(request.template, request.locale, request.data);
      const now = nowIso();
      await trx
        .insertInto('mailOutbox')
        .values({
          toAddress: request.to,
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html,
          template: request.template,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          lastError: null,
          createdAt: now,
          sentAt: null,
        })
        .execute();
      deps.onQueued?.();
    },

    flush,

    async close() {
      await inFlight?.catch(() => {});
      transport.close();
    },
  };
}
