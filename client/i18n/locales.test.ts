import { describe, expect, it, vi } from 'vitest';
import { createI18n } from './index';
import en from './en.json';
import fr from './fr.json';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
}

function leaf(root: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], root);
}

describe('translations', () => {
  it('have the same keys in English and French', () => {
    expect(keysOf(fr).sort()).toEqual(keysOf(en).sort());
  });

  it('use the same placeholders in both languages', () => {
    for (const key of keysOf(en)) {
      expect(placeholders(String(leaf(fr, key))), key).toEqual(placeholders(String(leaf(en, key))));
    }
  });

  it('have no empty text', () => {
    for (const key of [...keysOf(en), ...keysOf(fr)]) {
      expect(String(leaf(en, key)).trim(), key).not.toBe('');
    }
  });

  it('translate every password rule key the server may send', () => {
    for (const rule of ['too_short', 'too_long', 'no_lowercase', 'no_uppercase', 'no_number', 'no_special_char']) {
      expect(leaf(en, `password.error.${rule}`)).toBeTypeOf('string');
      expect(leaf(fr, `password.error.${rule}`)).toBeTypeOf('string');
    }
  });

  it('agree in number where French needs it', () => {
    const { t } = createI18n('fr');
    expect(t('notificationCentre.openUnread', { count: 1 })).toBe('Notifications (1 non lue)');
    expect(t('notificationCentre.openUnread', { count: 3 })).toBe('Notifications (3 non lues)');
  });
});

/**
 * The controls whose accessible name (aria-label) adds context to their visible text, each as
 * [visible text, accessible name]. WCAG 2.5.3 "Label in Name": the visible words are in the name, in
 * order, so that a speech user saying what they see reaches the control.
 */
const LABELLED_CONTROLS: readonly [string, string][] = [
  ['licences.downloadFile', 'licences.downloadFileLabel'],
  ['licences.copyKey', 'licences.copyKeyLabel'],
  ['licences.renew', 'licences.renewLabel'],
  ['customization.action', 'customization.actionLabel'],
  ['members.resend', 'members.resendFor'],
  ['members.copy', 'members.copyFor'],
  ['members.cancel', 'members.cancelFor'],
  ['downloads.download', 'downloads.downloadLabel'],
  ['downloads.copyUrl', 'downloads.copyUrlLabel'],
  ['catalogue.edit', 'catalogue.editVersion'],
  ['catalogue.publish.action', 'catalogue.publishVersion'],
  ['productTokens.revoke', 'productTokens.revokeLabel'],
  ['artifacts.copy', 'artifacts.copyShaLabel'],
  ['artifacts.remove', 'artifacts.removeLabel'],
  ['artifacts.replace', 'artifacts.replaceLabel'],
  ['artifacts.upload', 'artifacts.uploadLabel'],
  ['analytics.export', 'analytics.exportLabel'],
  ['endingLicences.renew', 'endingLicences.renewLabel'],
  ['instances.open', 'instances.openFor'],
  ['instances.logs', 'instances.logsFor'],
  ['instances.archive', 'instances.archiveFor'],
  ['instances.restore', 'instances.restoreFor'],
];

/** As axe-core compares them: lower case, punctuation and repeated spaces left out. */
const curated = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('accessible names', () => {
  it('hold the visible text of their control, in both languages (WCAG 2.5.3)', () => {
    for (const texts of [en, fr]) {
      for (const [visible, name] of LABELLED_CONTROLS) {
        const label = String(leaf(texts, name)).replace(/\{\{\w+\}\}/g, 'X');
        expect(curated(label), `${name} holds ${visible}`).toContain(curated(String(leaf(texts, visible))));
      }
    }
  });
});

describe('loading per language', () => {
  it('fetches only the page language, and the other one on the first switch', async () => {
    // A fresh copy of the module, without the translations the test setup registers.
    vi.resetModules();
    const fresh = await import('./index');
    const i18n = await fresh.startI18n('en');
    expect(i18n.t('app.name')).toBe(en.app.name);
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('fr', 'translation')).toBe(false);

    expect(await fresh.switchLanguage(i18n, 'fr')).toBe(true);
    expect(i18n.hasResourceBundle('fr', 'translation')).toBe(true);
    expect(i18n.language).toBe('fr');
    expect(i18n.t('login.pageTitle')).toBe(fr.login.pageTitle);
  });
});

describe('switching language', () => {
  it('stays in the language on screen when the other texts cannot be fetched, rather than showing keys', async () => {
    vi.resetModules();
    const fresh = await import('./index');
    const i18n = await fresh.startI18n('en');
    const failing = () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/fr-x1.js'));
    expect(await fresh.switchLanguage(i18n, 'fr', failing)).toBe(false);
    expect(i18n.language).toBe('en');
    expect(i18n.t('app.name')).toBe(en.app.name);

    expect(await fresh.switchLanguage(i18n, 'fr', () => Promise.resolve(fr))).toBe(true);
    expect(i18n.language).toBe('fr');
    expect(i18n.t('login.pageTitle')).toBe(fr.login.pageTitle);
  });
});
