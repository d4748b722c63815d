// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../common/constants';
import { storage } from '../../app/storage';
import { pageLoad } from '../../public/router';
import { adminProfile, builtinConfig } from '../../test/render';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderPublicPage } from '../../test/render';
import { LoginPage } from './LoginPage';

const renderLogin = (path = '/en/login', state?: unknown, config = builtinConfig) =>
  renderPublicPage(<LoginPage />, { path, state, config });

function signIn(email = 'casey@demo.portal', password = 'Demo-Password-2024!') {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginPage', () => {
  it('shows no captcha until the API answers HTTP 420, then asks for it', async () => {
    const api = fakeApi({
      'POST /api/auth/login': () => apiError(420, 'captcha_required', 'Please solve the captcha'),
    });
    renderLogin();
    expect(screen.queryByTestId('captcha')).toBeNull();

    signIn();
    // The captcha widget loads on demand, with the portal's own texts.
    const checkbox = await screen.findByRole('checkbox', { name: 'I am not a robot' });
    expect(screen.getByTestId('captcha').contains(checkbox)).toBe(true);
    expect(screen.getByTestId('login-error').textContent).toBe(
      'Please confirm that you are not a robot, then sign in again.',
    );
    expect(api.calls('POST /api/auth/login')[0].body).toEqual({
      email: 'casey@demo.portal',
      password: 'Demo-Password-2024!',
    });

    // Spec 5: once shown, the captcha is required; no call goes out without it.
    signIn();
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toContain('not a robot'));
    expect(api.calls('POST /api/auth/login')).toHaveLength(1);
  });

  it('shows the captcha as soon as a refusal says the next attempt needs it, before that attempt', async () => {
    const api = fakeApi({
      'POST /api/auth/login': () =>
        apiError(401, 'bad_credentials', 'Invalid e-mail or password', [
          { path: 'recaptchaResponse', message: 'apiErrors.captcha_required' },
        ]),
    });
    renderLogin();
    signIn();
    expect(await screen.findByRole('checkbox', { name: 'I am not a robot' })).toBeTruthy();
    expect(screen.getByTestId('login-error').textContent).toBe('Unable to authenticate... Invalid e-mail or password.');

    // The next attempt waits for the captcha instead of being refused with HTTP 420.
    signIn();
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toContain('not a robot'));
    expect(api.calls('POST /api/auth/login')).toHaveLength(1);
  });

  it('fills in the e-mail it is given (after a password reset) and asks for the password', async () => {
    fakeApi({});
    renderLogin('/en/login', { email: 'casey@demo.portal' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('casey@demo.portal');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
  });

  it('keeps the captcha away on a plain refusal and shows the spec 8 message', async () => {
    fakeApi({ 'POST /api/auth/login': () => apiError(401, 'bad_credentials', 'Invalid e-mail or password') });
    renderLogin();
    signIn();
    const error = await screen.findByTestId('login-error');
    expect(error.textContent).toBe('Unable to authenticate... Invalid e-mail or password.');
    expect(screen.queryByTestId('captcha')).toBeNull();
  });

  it('tells an account that failed too often to wait a few minutes', async () => {
    fakeApi({
      'POST /api/auth/login': () => apiError(429, 'login_delayed', 'Too many failed sign-ins for this account'),
    });
    renderLogin();
    signIn();
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Unable to authenticate... Too many failed sign-ins for this account. Please wait a few minutes, then try again.',
    );
    expect(screen.queryByTestId('captcha')).toBeNull();
  });

  it('speaks French on the French page, captcha included', async () => {
    fakeApi({ 'POST /api/auth/login': () => apiError(420, 'captcha_required', 'Please solve the captcha') });
    renderLogin('/fr/login');
    expect(document.title).toBe('Connexion · Graph Portal');
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'casey@demo.portal' } });
    fireEvent.change(screen.getByLabelText('Mot de passe'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('checkbox', { name: 'Je ne suis pas un robot' })).toBeTruthy();
  });

  it('ties required-field errors to their fields and focuses the first', async () => {
    const api = fakeApi({});
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'This field is required.',
    );
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(api.requests).toHaveLength(0);
  });

  it('links to the sign-up when self-service is offered, and to none when it is not', async () => {
    fakeApi({});
    const { unmount } = renderLogin();
    const offered = await screen.findByTestId('login-sign-up');
    expect(offered.textContent).toBe('No account yet? Start a free trial');
    expect(screen.getByRole('link', { name: 'Start a free trial' }).getAttribute('href')).toBe('/en/sign-up');
    unmount();

    renderLogin('/fr/login', undefined, { ...builtinConfig, selfServiceSignup: false });
    await screen.findByTestId('login-sso-switch');
    await waitFor(() => expect(screen.getByTestId('login-sso-switch').parentElement!.style.visibility).toBe(''));
    expect(screen.queryByTestId('login-sign-up')).toBeNull();
    expect(document.querySelector('a[href$="/sign-up"]')).toBeNull();
  });

  it('offers no switch to the support site without a support desk, and keeps no target for it', async () => {
    const assign = vi.spyOn(pageLoad, 'assign').mockImplementation(() => {});
    fakeApi({ 'POST /api/auth/login': () => ({ status: 200, body: adminProfile }) });
    renderLogin(`/en/login?sso=${encodeURIComponent('https://support.example.com/hc')}`, undefined, {
      ...builtinConfig,
      supportDesk: false,
    });
    await waitFor(() => expect(screen.queryByTestId('login-sso-switch')).toBeNull());
    expect(screen.queryByText('Go to the support site instead')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in to the download center');
    signIn();
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(assign.mock.calls[0][0]).not.toContain('/api/jwt/redirect');
    storage.remove(STORAGE_KEYS.ssoRedirect);
    vi.restoreAllMocks();
  });

  describe('coming from the support desk’s hand-off (?sso=)', () => {
    afterEach(() => {
      storage.remove(STORAGE_KEYS.ssoRedirect);
      vi.restoreAllMocks();
    });

    it('stores the target, says "support", and leads back through the hand-off after sign-in', async () => {
      const assign = vi.spyOn(pageLoad, 'assign').mockImplementation(() => {});
      fakeApi({ 'POST /api/auth/login': () => ({ status: 200, body: adminProfile }) });
      const target = 'https://support.example.com/hc/requests/42';
      renderLogin(`/en/login?sso=${encodeURIComponent(target)}`);
      expect(storage.get(STORAGE_KEYS.ssoRedirect)).toBe(target);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in to support');

      signIn();
      await waitFor(() => expect(assign).toHaveBeenCalled());
      expect(assign).toHaveBeenCalledWith(`/api/jwt/redirect?to=${encodeURIComponent(target)}`);
    });

    it('forgets the target when the visitor switches to the download center', async () => {
      renderLogin(`/fr/login?sso=${encodeURIComponent('https://support.example.com/hc')}`);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Connexion au support');
      // the switch shows once the settings have come
      const sso = screen.getByTestId('login-sso-switch');
      await waitFor(() => expect(sso.parentElement!.style.visibility).toBe(''));
      fireEvent.click(sso);
      expect(storage.get(STORAGE_KEYS.ssoRedirect)).toBeNull();
      expect(screen.getByRole('heading', { level: 1 }).textContent).not.toBe('Connexion au support');
    });
  });
});
