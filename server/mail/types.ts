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
  /** an admin removed the user's second factors (docs/security.md, "Two-factor sign-in") */
  twoFactorReset: { fullName: string; link: string };
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
  /** a self-service sign-up (docs/decisions/067): the link opens /{locale}/sign-up/confirmation/{key} */
  signupConfirmation: { fullName: string; companyName: string; link: string; validityHours: number };
  /** to the team's managers who asked for it (notifyInvitationAccepted): someone joined their customer */
  invitationAccepted: NotificationMail & {
    memberFullName: string;
    memberEmail: string;
    customerName: string;
    role: MemberRole;
  };
  /** notifyLicenseExpiresSoon: a licence enters its last 3 months */
  licenseExpiresSoon: NotificationMail & { customerName: string; productName: string; endDate: string };
  /** notifyLicenseExpired: a licence passed its end date */
  licenseExpired: NotificationMail & { customerName: string; productName: string; endDate: string };
  /** notifyProductDownload: the downloads of one digest window, oldest first */
  productDownloadDigest: NotificationMail & {
    customerName: string;
    downloads: { productName: string; semVer: string; platform: string; by: string | null; at: string }[];
  };
  /** notifyFirstProductDownload: the first download of a product under a licence */
  firstProductDownload: NotificationMail & {
    customerName: string;
    productName: string;
    semVer: string;
    platform: string;
    by: string | null;
  };
  /** notifyNewVersion: a published version the member's licence allows */
  newVersion: NotificationMail & { productName: string; semVer: string };
  /** notifyNewProductLicense: a licence added to the customer */
  newProductLicense: NotificationMail & { customerName: string; productName: string };
  /** notifyEmailError: a mail to one of the customer's members could not be delivered */
  emailError: NotificationMail & { customerName: string; email: string; error: string };
  /**
   * To the project managers and the account executive of a self-service customer whose payment
   * failed (docs/billing.md): the service runs until `graceUntil` (YYYY-MM-DD), `days` from now.
   * Not a notification one turns off: the account is at stake.
   */
  paymentGrace: { fullName: string; customerName: string; graceUntil: string; days: number; link: string };
  /** to the business owners and the account executive: grace ended unpaid, the instance is archived */
  instanceArchived: InstanceMail & { deleteDataDelayInDays: number; deleteOn: string };
  /** to the same: an archived instance's data is being deleted, for good */
  instanceDataDeleted: InstanceMail;
}

/** What the mails about a cloud instance name: the recipient, the customer, the instance, its page. */
export interface InstanceMail {
  fullName: string;
  customerName: string;
  instanceName: string;
  link: string;
}

/**
 * What every notification mail has: the recipient's name, the page it is about, and the settings page
 * where that notification is turned off (also its List-Unsubscribe header).
 */
interface NotificationMail {
  fullName: string;
  link: string;
  settingsLink: string;
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
