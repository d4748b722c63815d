import type { Locale } from '../../common/roles';

/** Mail templates; each exists in English and French under server/mail/templates. */
export type MailTemplate = 'passwordReset' | 'accountCreated';

export interface MailRequest {
  to: string;
  template: MailTemplate;
  locale: Locale;
  /** values substituted in the template, e.g. { fullName, link } */
  data: Record<string, string>;
}

export interface Mailer {
  /** Renders the mail and stores it in the durable outbox; delivery happens in the background. */
  send(request: MailRequest): Promise<void>;
  /** Delivers due mails now (used by the outbox worker and by tests). Returns how many were sent. */
  flush(): Promise<number>;
  /** Starts and stops the background delivery loop. */
  start(): void;
  stop(): Promise<void>;
}
