import type { Locale, MemberRole } from '../../common/roles';
import type { DB } from '../db';

/**
 * Every mail template and the data it takes. A request names a template and must give exactly its
 * data: a missing or an extra field is a type error. Texts are in server/i18n, layouts in templates.ts.
 */
export interface MailTemplates {
  passwordReset: { fullName: string; link: string; validityHours: number };
  accountCreated: { fullName: string; link: string; validityHours: number };
  /** to a new address: the link that makes one's own e-mail change */
  emailChangeConfirm: { fullName: string; link: string; validityHours: number };
  /** to a new address that already has an account: no link, only a way to sign in */
  emailChangeTaken: { link: string };
  /** to the old address: a change was asked for */
  emailChangeNotice: { fullName: string; newEmail: string; link: string };
  /** an invitation to join a customer: the link opens /{locale}/invitation/{key} */
  invitation: {
    invitedFullName: string;
    inviterFullName: string | null;
    customerName: string;
    role: MemberRole;
    link: string;
    validityHours: number;
  };
  /** to the team's managers who asked for it (notifyInvitationAccepted): someone joined their customer */
  invitationAccepted: {
    fullName: string;
    memberFullName: string;
    memberEmail: string;
    customerName: string;
    role: MemberRole;
    link: string;
  };
}

export type MailTemplate = keyof MailTemplates;

export type MailRequest<T extends MailTemplate = MailTemplate> = {
  [K in T]: { to: string; template: K; locale: Locale; data: MailTemplates[K] };
}[T];

export interface Mailer {
  /**
   * Renders the mail, writes it to the durable outbox and queues its delivery through `db`: pass the
   * transaction that makes the change the mail tells of, so all commit or roll back together.
   */
  send(request: MailRequest, db?: DB): Promise<void>;
  /**
   * One delivery attempt of an outbox mail (its job's work). Throws when the attempt should be retried;
   * 'refused' when the SMTP peer refused it for good (the row is failed), 'skipped' when it was sent.
   */
  deliver(mailId: number): Promise<'sent' | 'refused' | 'skipped'>;
  /** The delivery job's last attempt failed: the row is failed with that error. */
  gaveUp(mailId: number, error: string): Promise<void>;
  /** Lets the SMTP connection go. */
  close(): Promise<void>;
}
