import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

/** Where the outbox hands its mails. */
export interface Transport {
  readonly kind: 'smtp' | 'local';
  deliver(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Timeouts well below the outbox's claim lease, so a stuck server cannot outlive the claim. */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

export function smtpTransport(url: string): Transport {
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    kind: 'smtp',
    async deliver(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
    },
    close: () => transporter.close(),
  };
}

const LINK = /https?:\/\/[^\s<>"']+/g;

/**
 * Without SMTP the mail stays in the outbox, where the local mailbox page shows it; its links also go
 * to the log so that a developer can follow them from the console.
 */
export function localTransport(log: FastifyBaseLogger): Transport {
  return {
    kind: 'local',
    async deliver(mail) {
      log.info(
        { to: mail.to, subject: mail.subject, links: mail.text.match(LINK) ?? [] },
        'mail kept in the local mailbox',
      );
    },
    close: () => {},
  };
}
