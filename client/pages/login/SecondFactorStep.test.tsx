// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPublicPage } from '../../test/render';
import { pageLoad } from '../../public/router';
import { LoginPage } from './LoginPage';

afterEach(() => vi.restoreAllMocks());

function passwordStep() {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'casey@demo.portal' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Demo-Password-2024!' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the sign-in’s second step', () => {
  it('asks for the code after the password, then takes the usual way in', async () => {
    const assign = vi.spyOn(pageLoad, 'assign').mockImplementation(() => {});
    let attempts = 0;
    const api = fakeApi({
      'POST /api/auth/login': () => ({ status: 200, body: { secondFactor: { methods: ['totp', 'recoveryCode'] } } }),
      'POST /api/auth/second-factor': () =>
        ++attempts === 1
          ? apiError(400, 'second_factor_invalid', 'The code is wrong or was already used')
          : { status: 200, body: adminProfile },
    });
    renderPublicPage(<LoginPage />, { path: '/en/login' });
    passwordStep();
    const code = await screen.findByLabelText('Code from your authenticator app');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(screen.queryByTestId('second-factor-passkey')).toBeNull();

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Unable to authenticate... The code is wrong or was already used, or the passkey could not be verified.',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcde-fghij' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(api.calls('POST /api/auth/second-factor').map((c) => c.body)).toEqual([
      { method: 'totp', code: '123456' },
      { method: 'recoveryCode', code: 'abcde-fghij' },
    ]);
  });

  it('starts over when the pending sign-in expired', async () => {
    fakeApi({
      'POST /api/auth/login': () => ({ status: 200, body: { secondFactor: { methods: ['totp'] } } }),
      'POST /api/auth/second-factor': () => apiError(401, 'sign_in_expired', 'The sign-in expired'),
    });
    renderPublicPage(<LoginPage />, { path: '/fr/login' });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'casey@demo.portal' } });
    fireEvent.change(screen.getByLabelText('Mot de passe'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    fireEvent.change(await screen.findByLabelText('Code de votre application d’authentification'), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect((await screen.findByTestId('login-error')).textContent).toContain('La connexion a expiré');
    fireEvent.click(screen.getByRole('button', { name: 'Recommencer' }));
    expect(await screen.findByLabelText('Mot de passe')).toBeTruthy();
  });
});
