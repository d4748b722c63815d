import type { Config } from '../config';
import type { MailMetrics } from '../metrics';
import type { Logger } from '../context';
import { type DB, nowIso } from '../db';
import { deliverDueMails, releaseOwnClaims } from './outbox';
import { insertOutboxMail } from './store';
import { renderMail } from './templates';
import { localTransport, smtpTransport, type Transport } from './transport';
import type { Mailer } from './types';

/**
 * The mailer: send() renders the mail and stores it in the outbox, in the caller's transaction, so a
 * mail survives a restart or an SMTP outage and exists only if the change it tells of does. flush()
 * delivers due mails over SMTP, or keeps them for the local mailbox page. A scheduled job calls flush
 * (server/jobs); `onQueued` tells it a mail is waiting. Within a transaction that has not committed
 * yet, that early pass may not see the mail (PostgreSQL); the job's next tick does.
 */
export function createMailer(deps: {
  config: Config;
  db: DB;
  log: Logger;
  onQueued?: () => void;
  /** counts the mails delivered and the failed attempts */
  metrics?: MailMetrics;
  /** where mails go; from the configuration otherwise (tests give their own) */
  transport?: Transport;
}): Mailer {
  const { config, db, log } = deps;
  const transport: Transport = deps.transport ?? (config.smtpUrl ? smtpTransport(config.smtpUrl) : localTransport(log));
  const node = config.nodeName;
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
        total += await deliverDueMails({ db, transport, from: config.mailFrom, node, metrics: deps.metrics });
      } while (again);
      return total;
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  return {
    async send(request, executor = db) {
      const mail = renderMail(request);
      const now = nowIso();
      await insertOutboxMail(executor, {
        toAddress: request.to,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        template: request.template,
        now,
      });
      deps.onQueued?.();
    },

    flush,

    async releaseOwnClaims() {
      const released = await releaseOwnClaims(db, node);
      if (released > 0) log.warn({ released, node }, 'mails claimed before a restart are due again');
      return released;
    },

    async close() {
      await inFlight?.catch(() => {});
      transport.close();
    },
  };
}
