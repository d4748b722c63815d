// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { fakeApi } from '../test/fakeApi';
import { builtinConfig } from '../test/render';
import { keepTypedValues } from '../components/typedBeforeHydration';
import { renderSignInPage } from './prerender';
import { PublicApp } from './PublicApp';

describe('the sign-in pages rendered at build time', () => {
  for (const [locale, path, heading] of [
    ['en', '/login', 'Sign in to the download center'],
    ['fr', '/password-lost', 'Mot de passe oublié'],
  ] as const) {
    it(`hydrate ${locale}${path} without a difference from the markup, and then work`, async () => {
      const markup = await renderSignInPage(locale, path);
      expect(markup).toContain(heading);
      fakeApi({});
      window.history.replaceState(null, '', `/${locale}${path}`);
      const root = document.createElement('div');
      root.innerHTML = markup;
      document.body.append(root);
      const heading1 = root.querySelector('h1');
      const onRecoverableError = vi.fn();
      await act(async () => {
        hydrateRoot(
          root,
          <PublicApp
            i18n={createI18n(locale)}
            session={{ profile: Promise.resolve(null), config: Promise.resolve(builtinConfig) }}
          />,
          { onRecoverableError },
        );
      });
      await waitFor(() => expect(document.title).toContain(heading.split(' ')[0]));
      // The same elements, adopted rather than replaced.
      expect(root.querySelector('h1')).toBe(heading1);
      expect(onRecoverableError).not.toHaveBeenCalled();
      const submit = root.querySelector<HTMLButtonElement>('button[type="submit"]')!;
      fireEvent.submit(submit.form!);
      expect(await screen.findAllByText(locale === 'en' ? 'This field is required.' : /obligatoire/)).not.toHaveLength(
        0,
      );
      root.remove();
    });
  }

  it('keep what a visitor typed before the script took over', async () => {
    const markup = await renderSignInPage('en', '/login');
    fakeApi({});
    window.history.replaceState(null, '', '/en/login');
    const root = document.createElement('div');
    root.innerHTML = markup;
    document.body.append(root);
    const email = () => root.querySelector<HTMLInputElement>('input[name="email"]')!;
    // typed into the pre-rendered page while its script was still on its way
    email().value = 'early@example.com';
    keepTypedValues(root);
    await act(async () => {
      hydrateRoot(
        root,
        <PublicApp
          i18n={createI18n('en')}
          session={{ profile: Promise.resolve(null), config: Promise.resolve(builtinConfig) }}
        />,
      );
    });
    await waitFor(() => expect(document.title).toContain('Sign'));
    expect(email().value).toBe('early@example.com');
    // the form has it too: submitting reports only the empty password
    fireEvent.submit(root.querySelector('form')!);
    expect(await screen.findAllByText('This field is required.')).toHaveLength(1);
    root.remove();
  });
});
