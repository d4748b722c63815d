import { describe, expect, it } from 'vitest';
import { frenchTypography } from '../i18n';
import { renderMail } from './templates';

const link = 'https://portal.example.com/en/reset-password/tok?a=1&b=2';
const data = { fullName: 'A', link, validityHours: 1 };

describe('mail templates', () => {
  it('exist in English and French', () => {
    const subject = (template: 'passwordReset' | 'accountCreated', locale: 'en' | 'fr') =>
      renderMail({ to: 'a@example.com', template, locale, data }).subject;
    expect(subject('passwordReset', 'en')).toBe('Reset your password');
    expect(subject('passwordReset', 'fr')).toBe('Réinitialisez votre mot de passe');
    expect(subject('accountCreated', 'en')).toBe('Your account on the customer portal');
    expect(subject('accountCreated', 'fr')).toBe('Votre compte sur le portail client');
  });

  it('escape what they insert in the HTML part, and keep the text part plain', () => {
    const mail = renderMail({
      to: 'a@example.com',
      template: 'accountCreated',
      locale: 'en',
      data: { ...data, fullName: '<script>alert(1)</script> & co' },
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(mail.html).toContain('href="https://portal.example.com/en/reset-password/tok?a=1&amp;b=2"');
    expect(mail.text).toContain('Hello <script>alert(1)</script> & co,');
    expect(mail.text).toContain(`Choose my password: ${link}`);
  });

  it('state how long the link works, with each language’s plurals, in days when whole days', () => {
    const text = (locale: 'en' | 'fr', validityHours: number) =>
      renderMail({ to: 'a@example.com', template: 'accountCreated', locale, data: { ...data, validityHours } }).text;
    expect(text('en', 1)).toContain('valid for 1 hour and can be used once.');
    expect(text('en', 2)).toContain('valid for 2 hours ');
    expect(text('en', 168)).toContain('valid for 7 days ');
    expect(text('fr', 1)).toContain('valable 1 heure et');
    expect(text('fr', 168)).toContain('valable 7 jours et');
    expect(text('fr', 24)).toContain('valable 24 heures et');
  });

  it('follow French typography: a no-break space before : ; ! ? in our texts, never inside a link', () => {
    const mail = renderMail({ to: 'a@example.com', template: 'passwordReset', locale: 'fr', data });
    expect(mail.text).toContain(`Choisir un nouveau mot de passe\u00A0: ${link}`);
    expect(mail.text).toContain('ignorez ce message\u00A0: votre mot de passe reste inchangé.');
    expect(mail.text).not.toMatch(/ [:;!?]/);
    expect(mail.text).toContain('tok?a=1&b=2');
    expect(frenchTypography('Vraiment ? Oui ! Bon ; fin : ici')).toBe(
      'Vraiment\u202F? Oui\u202F! Bon\u202F; fin\u00A0: ici',
    );
    // English keeps its own rules
    const en = renderMail({ to: 'a@example.com', template: 'passwordReset', locale: 'en', data });
    expect(en.text).toContain('ignore this message: your password');
  });

  it("name a download's platform in the mail's language, not by its stored key", () => {
    const notice = { fullName: 'A', link, settingsLink: link, customerName: 'Acme', productName: 'Graph Server' };
    const first = (locale: 'en' | 'fr', platform: string) =>
      renderMail({
        to: 'a@example.com',
        template: 'firstProductDownload',
        locale,
        data: { ...notice, semVer: '4.1.0', platform, by: 'Zoë' },
      }).text;
    expect(first('en', 'osx')).toContain('version 4.1.0 for macOS, by Zoë');
    expect(first('fr', 'generic')).toContain('toute plateforme');
    expect(first('en', 'unknown')).toContain('for an unknown platform');

    const digest = renderMail({
      to: 'a@example.com',
      template: 'productDownloadDigest',
      locale: 'en',
      data: {
        ...notice,
        downloads: [{ productName: 'Graph Server', semVer: '4.1.0', platform: 'generic', by: null, at: '27 Nov 2026' }],
      },
    }).text;
    expect(digest).toContain('Graph Server 4.1.0 (any platform), by anonymous');
    expect(digest).not.toContain('(generic)');
  });
});
