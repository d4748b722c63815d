// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../../common/roles';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import { Translator } from '../i18n/translate';
import { apiError, fakeApi } from '../test/fake-api';
import { builtinConfig } from '../test/render';
import { PublicApp } from './PublicApp';
import { omitSections, pickSections, SIGN_IN_TEXT_SECTIONS } from './sign-in-texts';

/** The sign-in pages' translator holding only their sections, which records every key it lacks. */
function signInTranslator(locale: Locale, missing: string[]) {
  const texts = pickSections(locale === 'en' ? en : fr, SIGN_IN_TEXT_SECTIONS);
  const translator = new Translator(locale, [[locale, texts]]);
  const translate = translator.t;
  translator.t = (key, options) => {
    const found = translate(key, { ...options, defaultValue: undefined });
    if (found === key) missing.push(key);
    return translate(key, options);
  };
  return translator;
}

function open(path: string, missing: string[]) {
  window.history.replaceState(null, '', path);
  render(
    <PublicApp
      translator={signInTranslator(path.startsWith('/fr') ? 'fr' : 'en', missing)}
      session={{ profile: Promise.resolve(null), config: Promise.resolve(builtinConfig) }}
    />,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('the sign-in pages’ texts', () => {
  it('keep the sections the pages use and leave the others out', () => {
    expect(Object.keys(pickSections(en, SIGN_IN_TEXT_SECTIONS)).sort()).toEqual([...SIGN_IN_TEXT_SECTIONS].sort());
    expect(pickSections(en, SIGN_IN_TEXT_SECTIONS)).not.toHaveProperty('users');
  });

  it('with the application’s other sections make up each language, each section once', () => {
    for (const texts of [en, fr]) {
      const others = omitSections(texts, SIGN_IN_TEXT_SECTIONS);
      expect(Object.keys(others).filter((name) => SIGN_IN_TEXT_SECTIONS.includes(name))).toEqual([]);
      expect({ ...pickSections(texts, SIGN_IN_TEXT_SECTIONS), ...others }).toEqual(texts);
    }
  });

  for (const locale of ['en', 'fr'] as const) {
    it(`are enough for the login page, its refusals and the captcha (${locale})`, async () => {
      const missing: string[] = [];
      fakeApi({ 'POST /api/auth/login': () => apiError(420, 'captcha_required', 'Please solve the captcha') });
      open(`/${locale}/login`, missing);
      const submit = await screen.findByRole('button', { name: locale === 'en' ? 'Sign in' : 'Se connecter' });
      fireEvent.click(submit); // empty fields: the schema's messages
      fireEvent.change(screen.getByLabelText(locale === 'en' ? 'Email' : 'E-mail'), {
        target: { value: 'casey@demo.portal' },
      });
      fireEvent.change(screen.getByLabelText(locale === 'en' ? 'Password' : 'Mot de passe'), {
        target: { value: 'x' },
      });
      fireEvent.click(submit);
      await screen.findByTestId('captcha');
      await screen.findByRole('checkbox');
      expect(missing).toEqual([]);
    });

    it(`are enough for the password pages (${locale})`, async () => {
      const missing: string[] = [];
      fakeApi({
        'GET /api/auth/check-password-reset': () => apiError(400, 'invalid_token', 'This token seems invalid'),
      });
      open(`/${locale}/reset-password/spent`, missing);
      await screen.findByTestId('reset-invalid-token');
      fireEvent.click(screen.getByRole('link', { name: locale === 'en' ? 'Request a new link' : /nouveau lien/i }));
      fireEvent.click(await screen.findByRole('button', { name: locale === 'en' ? 'Send reset link' : /Envoyer/ }));
      expect(missing).toEqual([]);
    });

    it(`are enough for the sign-up page, its carousel and each outcome (${locale})`, async () => {
      const missing: string[] = [];
      const answers = [
        apiError(409, 'signup_pending_invitation', 'pending invitation'),
        apiError(409, 'signup_already_exists', 'already exists'),
        apiError(500, 'internal_error', 'boom'),
        { status: 200, body: { ok: true } },
      ];
      fakeApi({ 'POST /api/signup': () => answers.shift()! });
      open(`/${locale}/sign-up`, missing);
      const submit = await screen.findByRole('button', { name: locale === 'en' ? 'Sign up' : "M'inscrire" });
      fireEvent.click(submit); // empty fields: the schema's messages
      fireEvent.click(screen.getByTestId('carousel-rotation'));
      const values = ['Vera', 'Visitor', 'vera@example.com', 'Vera Graphs', 'Architect'];
      for (const [index, input] of screen.getAllByRole('textbox').entries()) {
        fireEvent.change(input, { target: { value: values[index] } });
      }
      for (const outcome of ['pending', 'existingUser', 'generic', 'success']) {
        fireEvent.submit(document.querySelector('form')!);
        await screen.findByTestId(`signup-outcome-${outcome}`);
        if (outcome !== 'success') {
          // back to the form: the generic screen offers it, the others are left by opening the page again
          const retry = screen.queryByTestId('signup-retry');
          if (retry) fireEvent.click(retry);
          else {
            cleanup();
            open(`/${locale}/sign-up`, missing);
            await screen.findByRole('button', { name: locale === 'en' ? 'Sign up' : "M'inscrire" });
            for (const [index, input] of screen.getAllByRole('textbox').entries()) {
              fireEvent.change(input, { target: { value: values[index] } });
            }
          }
        }
      }
      expect(missing).toEqual([]);
    });
  }
});
