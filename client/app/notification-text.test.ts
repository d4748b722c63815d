import { describe, expect, it } from 'vitest';
import { NOTIFICATION_MESSAGE_KEYS, NOTIFICATION_MESSAGES } from '../../common/notifications';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import { createI18n } from '../i18n';
import { notificationText } from './notification-text';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
const textOf = (texts: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], texts);

describe('notification texts', () => {
  it('give each of the eight kinds a text in both languages, naming only parameters of its kind', () => {
    expect(NOTIFICATION_MESSAGE_KEYS).toHaveLength(8);
    for (const key of NOTIFICATION_MESSAGE_KEYS) {
      for (const texts of [en, fr]) {
        const text = textOf(texts, key);
        expect(text, key).toBeTypeOf('string');
        const named = placeholders(text as string);
        expect(named.length, key).toBeGreaterThan(0);
        for (const name of named) expect(NOTIFICATION_MESSAGES[key], `${key}: ${name}`).toContain(name);
      }
    }
  });

  it("render a kind's parameters, and a dash for one the notification lacks", () => {
    const { t } = createI18n('en');
    expect(
      notificationText(t, 'en', {
        messageKey: 'notification.licenseExpired',
        params: { customerName: 'Acme', productName: 'Graph Server', endDate: '2026-01-05' },
      }),
    ).toBe('The licence of Graph Server for Acme expired on 05 Jan 2026.');
    expect(notificationText(t, 'en', { messageKey: 'notification.newVersion', params: { productName: 'Graph' } })).toBe(
      'Graph — is available.',
    );
  });

  it('let no parameter act as an option of the translation (language, plural, default text)', () => {
    const { t } = createI18n('en');
    const text = notificationText(t, 'en', {
      messageKey: 'notification.invitationAccepted',
      params: { memberFullName: 'Zoë', customerName: 'Acme', lng: 'fr', count: 2, defaultValue: 'x', ns: 'other' },
    });
    expect(text).toBe('Zoë accepted the invitation to Acme.');
  });
});
