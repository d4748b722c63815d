// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadedTranslations } from '../i18n/load';
import { Translator } from '../i18n/translate';
import { expectConsoleError } from '../test/console';
import { fakeApi } from '../test/fake-api';
import { builtinConfig } from '../test/render';
import { keepTypedValues } from '../components/typed-before-hydration';
import { renderSignInPage } from './prerender';
import { PublicApp, preloadPublicPage } from './PublicApp';

/** Hydrates the sign-in page's markup in `root` as main.tsx does, with no session and the built-in settings. */
async function hydrateSignIn(
  root: HTMLElement,
  locale: 'en' | 'fr',
  { hydrating, onRecoverableError }: { hydrating?: boolean; onRecoverableError?: () => void } = {},
): Promise<Root> {
  let reactRoot: Root | undefined;
  await act(async () => {
    reactRoot = hydrateRoot(
      root,
      <PublicApp
        translator={new Translator(locale, loadedTranslations())}
        session={{ profile: Promise.resolve(null), config: Promise.resolve(builtinConfig) }}
        hydrating={hydrating}
      />,
      { onRecoverableError },
    );
  });
  return reactRoot!;
}

describe('the sign-in pages rendered at build time', () => {
  // The build renders the markup in Node and the browser hydrates it, each with its own React; here
  // both run on one copy, and React's server renderer leaves its mark on each context it provided,
  // which the client renderer then takes for a second renderer at work (the file runs isolated, so
  // that the mark stays in it: vitest.config.ts).
  beforeEach(() => expectConsoleError('Detected multiple renderers concurrently rendering the same context provider'));
  for (const [locale, path, heading] of [
    ['en', '/login', 'Sign in to the download center'],
    ['fr', '/password-lost', 'Mot de passe oublié'],
    ['en', '/sign-up', 'Start your free trial'],
    ['fr', '/sign-up', 'Commencez votre essai gratuit'],
  ] as const) {
    it(`hydrate ${locale}${path} without a difference from the markup, and then work`, async () => {
      const markup = await renderSignInPage(locale, path);
      expect(markup).toContain(heading);
      fakeApi({});
      window.history.replaceState(null, '', `/${locale}${path}`);
      const root = document.createElement('div');
      root.innerHTML = markup;
      document.body.append(root);
      // Pressed before the script takes over, the button would send the form by the browser, the
      // fields in the address: it is disabled in the markup, and enabled once hydrated.
      expect(root.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).toBe(true);
      const heading1 = root.querySelector('h1');
      const onRecoverableError = vi.fn();
      const reactRoot = await hydrateSignIn(root, locale, { onRecoverableError });
      await waitFor(() => expect(document.title).toContain(heading.split(' ')[0]));
      // The same elements, adopted rather than replaced.
      expect(root.querySelector('h1')).toBe(heading1);
      expect(onRecoverableError).not.toHaveBeenCalled();
      const submit = root.querySelector<HTMLButtonElement>('button[type="submit"]')!;
      if (path === '/login') expect(submit.disabled).toBe(false);
      fireEvent.submit(submit.form!);
      expect(await screen.findAllByText(locale === 'en' ? 'This field is required.' : /obligatoire/)).not.toHaveLength(
        0,
      );
      // unmounted, so that nothing still loading (the captcha's widget) updates a torn-down page
      act(() => reactRoot.unmount());
      root.remove();
    });
  }

  it('keep what a visitor typed before the script took over', async () => {
    const markup = await renderSignInPage('en', '/login');
    const api = fakeApi({
      'POST /api/auth/login': () => ({ status: 401, body: { error: { code: 'unauthenticated', message: 'no' } } }),
    });
    window.history.replaceState(null, '', '/en/login');
    const root = document.createElement('div');
    root.innerHTML = markup;
    document.body.append(root);
    const email = () => root.querySelector<HTMLInputElement>('input[name="email"]')!;
    // typed into the pre-rendered page while its script was still on its way
    email().value = 'early@example.com';
    keepTypedValues(root);
    // and the password while React was hydrating (after the fields were first read)
    const password = root.querySelector<HTMLInputElement>('input[name="password"]')!;
    password.value = 'typed-while-hydrating';
    password.dispatchEvent(new Event('input', { bubbles: true }));
    const reactRoot = await hydrateSignIn(root, 'en');
    await waitFor(() => expect(document.title).toContain('Sign'));
    expect(email().value).toBe('early@example.com');
    expect(root.querySelector<HTMLInputElement>('input[name="password"]')!.value).toBe('typed-while-hydrating');
    // the form has both: submitting sends them, with no field error
    fireEvent.submit(root.querySelector('form')!);
    await waitFor(() => expect(api.calls('POST /api/auth/login')).toHaveLength(1));
    expect(api.calls('POST /api/auth/login')[0].body).toMatchObject({
      email: 'early@example.com',
      password: 'typed-while-hydrating',
    });
    expect(screen.queryByText('This field is required.')).toBeNull();
    act(() => reactRoot.unmount());
    root.remove();
  });

  it('adopt the fields it drew rather than drawing them again once the address is read', async () => {
    // The address has a query the build's markup does not know: the router reads it in the render
    // after hydration. Were the page's markup still waiting for its code then, React would throw it
    // away and draw the form again, and what the visitor typed meanwhile would be lost.
    const markup = await renderSignInPage('en', '/login');
    fakeApi({});
    window.history.replaceState(null, '', '/en/login?next=%2Fen%2Fcustomers');
    const root = document.createElement('div');
    root.innerHTML = markup;
    document.body.append(root);
    const drawn = root.querySelector<HTMLInputElement>('input[name="email"]')!;
    await preloadPublicPage('/en/login');
    keepTypedValues(root);
    const onRecoverableError = vi.fn();
    const reactRoot = await hydrateSignIn(root, 'en', { hydrating: true, onRecoverableError });
    await waitFor(() => expect(document.title).toContain('Sign'));
    // typed once the page is live: it stays in the same field
    fireEvent.change(drawn, { target: { value: 'typed@example.com' } });
    await act(async () => {});
    expect(root.querySelector('input[name="email"]')).toBe(drawn);
    expect(drawn.value).toBe('typed@example.com');
    expect(onRecoverableError).not.toHaveBeenCalled();
    act(() => reactRoot.unmount());
    root.remove();
  });
});
