import type { Locale } from '../../common/roles';
import { durationText, serverT } from '../i18n';
import type { MailRequest, MailTemplate, MailTemplates } from './types';

/** A rendered mail, ready for the outbox. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
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
    after: [t('mail.invitationAccepted.settings')],
    signature: t('mail.signature'),
  }),
};

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

  return { subject: parts.subject, text, html };
}
