import type { Locale } from '../../common/roles';
import { DOWNLOAD_PLATFORMS } from '../../common/domain';
import { durationText, serverT } from '../i18n';
import type { MailRequest, MailTemplate, MailTemplates } from './types';

/** A rendered mail, ready for the outbox. */
interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** a notification's settings page, for its List-Unsubscribe header */
  listUnsubscribe: string | null;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A mail's parts, in its language; the layout below turns them into text and HTML. */
interface Parts {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; link: string };
  after: string[];
  signature: string;
}

type Layouts = {
  [T in MailTemplate]: (t: ReturnType<typeof serverT>, locale: Locale, data: MailTemplates[T]) => Parts;
};

const LAYOUTS: Layouts = {
  passwordReset: (t, locale, d) => ({
    subject: t('mail.passwordReset.subject'),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.passwordReset.intro')],
    action: { label: t('mail.passwordReset.action'), link: d.link },
    after: [t('mail.linkOnce', { validity: durationText(locale, d.validityHours) }), t('mail.passwordReset.ignore')],
    signature: t('mail.signature'),
  }),
  accountCreated: (t, locale, d) => ({
    subject: t('mail.accountCreated.subject'),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.accountCreated.intro')],
    action: { label: t('mail.accountCreated.action'), link: d.link },
    after: [t('mail.linkOnce', { validity: durationText(locale, d.validityHours) })],
    signature: t('mail.signature'),
  }),
  emailChangeConfirm: (t, locale, d) => ({
    subject: t('mail.emailChangeConfirm.subject'),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.emailChangeConfirm.intro')],
    action: { label: t('mail.emailChangeConfirm.action'), link: d.link },
    after: [
      t('mail.linkOnce', { validity: durationText(locale, d.validityHours) }),
      t('mail.emailChangeConfirm.ignore'),
    ],
    signature: t('mail.signature'),
  }),
  emailChangeTaken: (t, _locale, d) => ({
    subject: t('mail.emailChangeTaken.subject'),
    greeting: t('mail.emailChangeTaken.greeting'),
    paragraphs: [t('mail.emailChangeTaken.intro')],
    action: { label: t('mail.emailChangeTaken.action'), link: d.link },
    after: [t('mail.emailChangeTaken.after')],
    signature: t('mail.signature'),
  }),
  emailChangeNotice: (t, _locale, d) => ({
    subject: t('mail.emailChangeNotice.subject'),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.emailChangeNotice.intro', { newEmail: d.newEmail }), t('mail.emailChangeNotice.ifNotYou')],
    action: { label: t('mail.emailChangeNotice.action'), link: d.link },
    after: [],
    signature: t('mail.signature'),
  }),
  twoFactorReset: (t, _locale, d) => ({
    subject: t('mail.twoFactorReset.subject'),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.twoFactorReset.intro'), t('mail.twoFactorReset.ifNotYou')],
    action: { label: t('mail.twoFactorReset.action'), link: d.link },
    after: [],
    signature: t('mail.signature'),
  }),
  invitation: (t, locale, d) => ({
    subject: t('mail.invitation.subject', { customerName: d.customerName }),
    greeting: t('mail.greeting', { fullName: d.invitedFullName }),
    paragraphs: [
      d.inviterFullName
        ? t('mail.invitation.intro', {
            inviterFullName: d.inviterFullName,
            customerName: d.customerName,
            role: t(`roles.${d.role}`),
          })
        : t('mail.invitation.introNoInviter', { customerName: d.customerName, role: t(`roles.${d.role}`) }),
    ],
    action: { label: t('mail.invitation.action'), link: d.link },
    after: [
      t('mail.invitation.validity', { validity: durationText(locale, d.validityHours) }),
      t('mail.invitation.ignore'),
    ],
    signature: t('mail.signature'),
  }),
  signupConfirmation: (t, locale, d) => ({
    subject: t('mail.signupConfirmation.subject'),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.signupConfirmation.intro', { companyName: d.companyName })],
    action: { label: t('mail.signupConfirmation.action'), link: d.link },
    after: [
      t('mail.signupConfirmation.validity', { validity: durationText(locale, d.validityHours) }),
      t('mail.signupConfirmation.ignore'),
    ],
    signature: t('mail.signature'),
  }),
  invitationAccepted: (t, _locale, d) => ({
    subject: t('mail.invitationAccepted.subject', { memberFullName: d.memberFullName, customerName: d.customerName }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [
      t('mail.invitationAccepted.intro', {
        memberFullName: d.memberFullName,
        memberEmail: d.memberEmail,
        customerName: d.customerName,
        role: t(`roles.${d.role}`),
      }),
    ],
    action: { label: t('mail.invitationAccepted.action'), link: d.link },
    after: settingsLines(t, 'invitationAccepted', d.settingsLink),
    signature: t('mail.signature'),
  }),
  licenseExpiresSoon: (t, _locale, d) => ({
    subject: t('mail.licenseExpiresSoon.subject', { ...d }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.licenseExpiresSoon.intro', { ...d })],
    action: { label: t('mail.licenseExpiresSoon.action'), link: d.link },
    after: settingsLines(t, 'licenseExpiresSoon', d.settingsLink),
    signature: t('mail.signature'),
  }),
  licenseExpired: (t, _locale, d) => ({
    subject: t('mail.licenseExpired.subject', { ...d }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.licenseExpired.intro', { ...d })],
    action: { label: t('mail.licenseExpired.action'), link: d.link },
    after: settingsLines(t, 'licenseExpired', d.settingsLink),
    signature: t('mail.signature'),
  }),
  productDownloadDigest: (t, _locale, d) => ({
    subject: t('mail.productDownloadDigest.subject', { count: d.downloads.length, customerName: d.customerName }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [
      t('mail.productDownloadDigest.intro', { customerName: d.customerName }),
      ...d.downloads.map((download) =>
        t('mail.productDownloadDigest.line', {
          ...download,
          platform: platformName(t, download.platform),
          by: download.by ?? t('mail.productDownloadDigest.anonymous'),
        }),
      ),
    ],
    action: { label: t('mail.productDownloadDigest.action'), link: d.link },
    after: settingsLines(t, 'productDownloadDigest', d.settingsLink),
    signature: t('mail.signature'),
  }),
  firstProductDownload: (t, _locale, d) => ({
    subject: t('mail.firstProductDownload.subject', { ...d }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [
      t('mail.firstProductDownload.intro', {
        ...d,
        platform: platformName(t, d.platform),
        by: d.by ?? t('mail.productDownloadDigest.anonymous'),
      }),
    ],
    action: { label: t('mail.firstProductDownload.action'), link: d.link },
    after: settingsLines(t, 'firstProductDownload', d.settingsLink),
    signature: t('mail.signature'),
  }),
  newVersion: (t, _locale, d) => ({
    subject: t('mail.newVersion.subject', { ...d }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.newVersion.intro', { ...d })],
    action: { label: t('mail.newVersion.action'), link: d.link },
    after: settingsLines(t, 'newVersion', d.settingsLink),
    signature: t('mail.signature'),
  }),
  newProductLicense: (t, _locale, d) => ({
    subject: t('mail.newProductLicense.subject', { ...d }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.newProductLicense.intro', { ...d })],
    action: { label: t('mail.newProductLicense.action'), link: d.link },
    after: settingsLines(t, 'newProductLicense', d.settingsLink),
    signature: t('mail.signature'),
  }),
  emailError: (t, _locale, d) => ({
    subject: t('mail.emailError.subject', { ...d }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.emailError.intro', { ...d }), t('mail.emailError.check')],
    action: { label: t('mail.emailError.action'), link: d.link },
    after: settingsLines(t, 'emailError', d.settingsLink),
    signature: t('mail.signature'),
  }),
  paymentGrace: (t, _locale, d) => ({
    subject: t('mail.paymentGrace.subject', { customerName: d.customerName }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [
      t('mail.paymentGrace.intro', { customerName: d.customerName }),
      t('mail.paymentGrace.until', { count: d.days, graceUntil: d.graceUntil }),
    ],
    action: { label: t('mail.paymentGrace.action'), link: d.link },
    after: [t('mail.paymentGrace.after')],
    signature: t('mail.signature'),
  }),
  instanceArchived: (t, _locale, d) => ({
    subject: t('mail.instanceArchived.subject', { ...d }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [
      t('mail.instanceArchived.intro', { ...d }),
      t('mail.instanceArchived.deletion', { count: d.deleteDataDelayInDays, deleteOn: d.deleteOn }),
      t('mail.instanceArchived.restore'),
    ],
    action: { label: t('mail.instanceArchived.action'), link: d.link },
    after: [],
    signature: t('mail.signature'),
  }),
  instanceDataDeleted: (t, _locale, d) => ({
    subject: t('mail.instanceDataDeleted.subject', { ...d }),
    greeting: t('mail.greeting', { fullName: d.fullName }),
    paragraphs: [t('mail.instanceDataDeleted.intro', { ...d }), t('mail.instanceDataDeleted.after')],
    action: { label: t('mail.instanceDataDeleted.action'), link: d.link },
    after: [],
    signature: t('mail.signature'),
  }),
};

type NotificationTemplate =
  | 'invitationAccepted'
  | 'licenseExpiresSoon'
  | 'licenseExpired'
  | 'productDownloadDigest'
  | 'firstProductDownload'
  | 'newVersion'
  | 'newProductLicense'
  | 'emailError';

/** A platform by its name in the mail's language (the value stored is its key: `osx`, `generic`). */
function platformName(t: ReturnType<typeof serverT>, platform: string): string {
  return (DOWNLOAD_PLATFORMS as readonly string[]).includes(platform) ? t(`platforms.${platform}`) : platform;
}

/** Why the recipient gets a notification, and where to turn it off. */
function settingsLines(t: ReturnType<typeof serverT>, template: NotificationTemplate, settingsLink: string) {
  return [t(`mail.${template}.settings`), t('mail.settingsLine', { link: settingsLink })];
}

function partsOf<T extends MailTemplate>(request: MailRequest<T>): Parts {
  const layout = LAYOUTS[request.template] as Layouts[T] | undefined;
  if (!layout) throw new Error(`unknown mail template ${request.template}`);
  return layout(serverT(request.locale), request.locale, request.data);
}

export function renderMail(request: MailRequest): RenderedMail {
  const parts = partsOf(request);
  const t = serverT(request.locale);
  const { label, link } = parts.action;

  const text = [
    parts.greeting,
    '',
    ...parts.paragraphs,
    '',
    t('mail.actionLine', { action: label, link }),
    '',
    ...parts.after,
    '',
    parts.signature,
  ]
    .join('\n')
    .concat('\n');

  const p = (line: string) => `<p>${escapeHtml(line)}</p>`;
  const html = [
    '<!doctype html>',
    `<html lang="${request.locale}"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #222;">',
    p(parts.greeting),
    ...parts.paragraphs.map(p),
    `<p><a href="${escapeHtml(link)}" style="font-weight: bold;">${escapeHtml(label)}</a></p>`,
    `<p style="font-size: small; color: #555;">${escapeHtml(link)}</p>`,
    ...parts.after.map(p),
    p(parts.signature),
    '</body></html>',
  ].join('\n');

  const data = request.data as { settingsLink?: unknown };
  return {
    subject: parts.subject,
    text,
    html,
    listUnsubscribe: typeof data.settingsLink === 'string' ? data.settingsLink : null,
  };
}
