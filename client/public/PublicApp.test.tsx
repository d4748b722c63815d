// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../common/api/auth';
import { LoginPage } from '../pages/login/LoginPage';
import { loadedTranslations } from '../i18n/load';
import { Translator } from '../i18n/translate';
import { profileCan } from '../test/abilities';
import { fakeApi } from '../test/fake-api';
import { adminProfile, builtinConfig, renderPublicPage } from '../test/render';
import { PublicApp } from './PublicApp';
import { pageLoad } from './router';

const clientProfile: Profile = {
  ...adminProfile,
  type: 'client',
  yourRole: null,
  preferredLocale: 'fr',
  can: profileCan('client', null),
};

function openPublicApp(path: string, profile: Profile | null = null) {
  window.history.replaceState(null, '', path);
  const locale = path.startsWith('/fr') ? 'fr' : 'en';
  return render(
    <PublicApp
      translator={new Translator(locale, loadedTranslations())}
      session={{ profile: Promise.resolve(profile), config: Promise.resolve(builtinConfig) }}
    />,
  );
}

function spyOnPageLoads() {
  return {
    assign: vi.spyOn(pageLoad, 'assign').mockImplementation(() => {}),
    replace: vi.spyOn(pageLoad, 'replace').mockImplementation(() => {}),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('the sign-in pages (public.html)', () => {
  it('send a signed-in visitor on to the application, in their language, without showing the form', async () => {
    const loads = spyOnPageLoads();
    openPublicApp('/en/login', clientProfile);
    await waitFor(() => expect(loads.replace).toHaveBeenCalledWith('/fr/select-account'));
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('go between the sign-in pages without a page load, and load the application for the others', async () => {
    const loads = spyOnPageLoads();
    fakeApi({});
    openPublicApp('/en/login');
    fireEvent.click(await screen.findByRole('link', { name: 'Forgot your password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgotten password' })).toBeTruthy();
    expect(window.location.pathname).toBe('/en/password-lost');
    fireEvent.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(loads.assign).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('link', { name: 'Learn more' }));
    expect(loads.assign).toHaveBeenCalledWith(new URL('/en/cookies-information', window.location.href).href);
  });

  it('switch the language in place, keeping what was typed', async () => {
    fakeApi({});
    openPublicApp('/en/login');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'casey@demo.portal' } });
    fireEvent.click(screen.getByTestId('language-switch'));
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeTruthy();
    expect(window.location.pathname).toBe('/fr/login');
    expect(document.documentElement.lang).toBe('fr');
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('casey@demo.portal');
  });
});

describe('signing in', () => {
  function signIn() {
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'admin@demo.portal' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Demo-Password-2024!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  }

  it('opens the page the redirect parameter names, in the user’s language', async () => {
    const loads = spyOnPageLoads();
    fakeApi({ 'POST /api/auth/login': () => ({ status: 200, body: clientProfile }) });
    renderPublicPage(<LoginPage />, { path: '/en/login?redirect=%2Fen%2Fusers%3Fpage%3D2' });
    signIn();
    await waitFor(() => expect(loads.assign).toHaveBeenCalledWith('/fr/users?page=2'));
    // Until the application has loaded, the button says the sign-in is under way.
    expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(true);
  });

  it('opens the user’s start page without a redirect parameter', async () => {
    const loads = spyOnPageLoads();
    fakeApi({ 'POST /api/auth/login': () => ({ status: 200, body: adminProfile }) });
    renderPublicPage(<LoginPage />, { path: '/en/login' });
    signIn();
    await waitFor(() => expect(loads.assign).toHaveBeenCalledWith('/en'));
  });

  it('says the password was changed when the reset page hands over', async () => {
    fakeApi({});
    renderPublicPage(<LoginPage />, {
      path: '/en/login',
      state: { email: 'casey@demo.portal', passwordChanged: true },
    });
    expect(screen.getByTestId('login-notice').textContent).toBe('Your password has been changed. You can now sign in.');
    expect(screen.getByTestId('login-notice').getAttribute('role')).toBe('status');
    await act(async () => {});
  });
});
