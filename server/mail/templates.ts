import type { Locale } from '../../common/roles';
import type { MailTemplate } from './types';

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

/**
 * `validity` is how long the link works: a number of hours ("1", "168") or a phrase already in the
 * mail's language. Without it the mail does not state a duration.
 */
function validityText(locale: Locale, validity: string | undefined): string | null {
  if (!validity) return null;
  if (!/^\d+$/.test(validity)) return validity;
  const hours = Number(validity);
  const [n, unit] = hours >= 48 && hours % 24 === 0 ? [hours / 24, 'day'] : [hours, 'hour'];
  if (locale === 'fr') return `${n} ${unit === 'day' ? 'jour' : 'heure'}${n > 1 ? 's' : ''}`;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

const once: Record<Locale, (validity: string | null) => string> = {
  en: (v) => (v ? `This link is valid for ${v} and can be used once.` : 'This link can be used once.'),
  fr: (v) => (v ? `Ce lien est valable ${v} et ne peut servir qu’une fois.` : 'Ce lien ne peut servir qu’une fois.'),
};

interface Parts {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: string;
  after: string[];
  signature: string;
}

type Texts = Record<MailTemplate, Record<Locale, (d: Record<string, string>, validity: string | null) => Parts>>;

const TEXTS: Texts = {
  passwordReset: {
    en: (d, v) => ({
      subject: 'Reset your password',
      greeting: `Hello ${d.fullName},`,
      paragraphs: ['We received a request to reset the password of your account on the customer portal.'],
      action: 'Choose a new password',
      after: [once.en(v), 'If you did not ask for this, you can ignore this message: your password stays as it is.'],
      signature: 'The customer portal team',
    }),
    fr: (d, v) => ({
      subject: 'Réinitialisez votre mot de passe',
      greeting: `Bonjour ${d.fullName},`,
      paragraphs: [
        'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte sur le portail client.',
      ],
      action: 'Choisir un nouveau mot de passe',
      after: [
        once.fr(v),
        'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
      ],
      signature: 'L’équipe du portail client',
    }),
  },
  accountCreated: {
    en: (d, v) => ({
      subject: 'Your account on the customer portal',
      greeting: `Hello ${d.fullName},`,
      paragraphs: [
        'An account has been created for you on the customer portal. To sign in, first choose your password.',
      ],
      action: 'Choose my password',
      after: [once.en(v)],
      signature: 'The customer portal team',
    }),
    fr: (d, v) => ({
      subject: 'Votre compte sur le portail client',
      greeting: `Bonjour ${d.fullName},`,
      paragraphs: [
        'Un compte a été créé pour vous sur le portail client. Pour vous connecter, choisissez d’abord votre mot de passe.',
      ],
      action: 'Choisir mon mot de passe',
      after: [once.fr(v)],
      signature: 'L’équipe du portail client',
    }),
  },
};

export function renderMail(template: MailTemplate, locale: Locale, data: Record<string, string>): RenderedMail {
  const texts = TEXTS[template]?.[locale];
  if (!texts) throw new Error(`unknown mail template ${template} (${locale})`);
  const link = data.link ?? '';
  const parts = texts({ ...data, fullName: data.fullName ?? '' }, validityText(locale, data.validity));

  const text = [
    parts.greeting,
    '',
    ...parts.paragraphs,
    '',
    `${parts.action}: ${link}`,
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
    `<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #222;">',
    p(parts.greeting),
    ...parts.paragraphs.map(p),
    `<p><a href="${escapeHtml(link)}" style="font-weight: bold;">${escapeHtml(parts.action)}</a></p>`,
    `<p style="font-size: small; color: #555;">${escapeHtml(link)}</p>`,
    ...parts.after.map(p),
    p(parts.signature),
    '</body></html>',
  ].join('\n');

  return { subject: parts.subject, text, html };
}
