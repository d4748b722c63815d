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
   * Renders the mail and writes it to the durable outbox through `db`: pass the transaction that makes
   * the change the mail tells of, so both commit or roll back together. Delivery happens later.
   */
  send(request: MailRequest, db?: DB): Promise<void>;
  /** Delivers due mails now (the outbox job and tests call it). Returns how many were sent. */
  flush(): Promise<number>;
  /**
   * Makes due again the mails this node (NODE_NAME) had claimed: called at start, since a delivery
   * of the node's previous life cannot still be running. Returns how many.
   */
  releaseOwnClaims(): Promise<number>;
  /** Waits for a delivery pass in progress, then lets the SMTP connection go. */
  close(): Promise<void>;
}
