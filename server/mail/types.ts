import type { Locale } from '../../common/roles';
import type { DB } from '../db';

/** Mail templates; each exists in English and French in server/mail/templates.ts. */
export type MailTemplate = 'passwordReset' | 'accountCreated';

export interface MailRequest {
  to: string;
  template: MailTemplate;
  locale: Locale;
  /**
   * values substituted in the template: fullName, link, and optionally validity (how long the link
   * works: a number of hours such as "24" or "168", or a phrase in the mail's language)
   */
  data: Record<string, string>;
}

export interface Mailer {
  /**
   * Renders the mail and stores it in the durable outbox; delivery happens in the background. Given
   * the caller's transaction, the mail is stored in it, so it leaves only if the change commits.
   */
  send(request: MailRequest, trx?: DB): Promise<void>;
  /** Delivers due mails now (the outbox job and tests call it). Returns how many were sent. */
  flush(): Promise<number>;
  /** Waits for a delivery pass in progress, then lets the SMTP connection go. */
  close(): Promise<void>;
}
