import { describe, expect, it } from 'vitest';
import { renderMail } from './templates';

const link = 'https://portal.example.com/en/reset-password/tok?a=1&b=2';

describe('mail templates', () => {
  it('exist in English and French', () => {
    expect(renderMail('passwordReset', 'en', { fullName: 'A', link }).subject).toBe('Reset your password');
    expect(renderMail('passwordReset', 'fr', { fullName: 'A', link }).subject).toBe('Réinitialisez votre mot de passe');
    expect(renderMail('accountCreated', 'en', { fullName: 'A', link }).subject).toBe(
      'Your account on the customer portal',
    );
    expect(renderMail('accountCreated', 'fr', { fullName: 'A', link }).subject).toBe(
      'Votre compte sur le portail client',
    );
  });

  it('escape what they insert in the HTML part, and keep the text part plain', () => {
    const mail = renderMail('accountCreated', 'en', { fullName: '<script>alert(1)</script> & co', link });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(mail.html).toContain('href="https://portal.example.com/en/reset-password/tok?a=1&amp;b=2"');
    expect(mail.text).toContain('Hello <script>alert(1)</script> & co,');
    expect(mail.text).toContain(link);
  });

  it('state how long the link works when told, in hours or days', () => {
    expect(renderMail('passwordReset', 'en', { fullName: 'A', link, validity: '1' }).text).toContain(
      'valid for 1 hour ',
    );
    expect(renderMail('accountCreated', 'en', { fullName: 'A', link, validity: '168' }).text).toContain(
      'valid for 7 days ',
    );
    expect(renderMail('accountCreated', 'fr', { fullName: 'A', link, validity: '168' }).text).toContain(
      'valable 7 jours ',
    );
    expect(renderMail('accountCreated', 'en', { fullName: 'A', link }).text).toContain('This link can be used once.');
  });
});
