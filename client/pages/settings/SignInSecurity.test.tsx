// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { SignInSecurity } from './SignInSecurity';

const status = (over: object = {}) => ({
  passkeys: [{ id: 3, name: 'Laptop', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: null }],
  totp: null,
  recoveryCodesLeft: 10,
  required: false,
  ...over,
});

describe('SignInSecurity', () => {
  it('lists the passkeys and sets up an authenticator app, showing the recovery codes once', async () => {
    const api = fakeApi({
      'GET /api/auth/two-factor': () => ({ status: 200, body: status() }),
      'POST /api/auth/two-factor/totp': () => ({
        status: 200,
        body: {
          secret: 'JBSWY3DPEHPK3PXP',
          uri: 'otpauth://totp/x',
          qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        },
      }),
      'POST /api/auth/two-factor/totp/confirm': () => ({
        status: 200,
        body: {
          status: status({
            totp: { name: 'Authenticator app', createdAt: '2026-11-27T10:00:00.000Z', lastUsedAt: null },
          }),
          recoveryCodes: null,
        },
      }),
    });
    renderPage(<SignInSecurity />, { path: '/en/settings', route: '/:locale/settings' });
    const section = await screen.findByTestId('settings-security');
    expect(await within(section).findByText('Laptop')).toBeTruthy();
    expect(within(section).getByText('Sign-in security')).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Remove Laptop' })).toBeTruthy();

    fireEvent.click(within(section).getByRole('button', { name: 'Set up an authenticator app' }));
    expect(await within(section).findByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(within(section).getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeTruthy();
    fireEvent.change(within(section).getByLabelText('Code shown by the app'), { target: { value: '123456' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Confirm' }));
    expect(await within(section).findByTestId('factor-totp')).toBeTruthy();
    expect(api.calls('POST /api/auth/two-factor/totp/confirm')[0].body).toEqual({
      code: '123456',
      name: 'Authenticator app',
    });
  });

  it('asks for the current password before removing a factor, and says when it is wrong', async () => {
    const api = fakeApi({
      'GET /api/auth/two-factor': () => ({ status: 200, body: status() }),
      'DELETE /api/auth/two-factor/passkeys/3': (request) =>
        (request.body as { password?: string }).password === 'right-one'
          ? { status: 200, body: status({ passkeys: [], recoveryCodesLeft: 0 }) }
          : apiError(400, 'wrong_password', 'The current password is not correct', [
              { path: 'password', message: 'apiErrors.wrong_password' },
            ]),
    });
    renderPage(<SignInSecurity />, { path: '/en/settings', route: '/:locale/settings' });
    const section = await screen.findByTestId('settings-security');
    fireEvent.click(await within(section).findByRole('button', { name: 'Remove Laptop' }));
    const modal = await screen.findByTestId('remove-factor-modal');
    // no authenticator app: the password is the only way
    expect(within(modal).queryByRole('button', { name: /authenticator app instead/ })).toBeNull();
    const password = within(modal).getByLabelText('Your current password');
    fireEvent.change(password, { target: { value: 'wrong-one' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Remove' }));
    expect(await within(modal).findByText('The current password is not correct.')).toBeTruthy();
    expect(api.calls('DELETE /api/auth/two-factor/passkeys/3')[0].body).toEqual({ password: 'wrong-one' });

    fireEvent.change(password, { target: { value: 'right-one' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Remove' }));
    expect(await within(section).findByText('No passkey yet.')).toBeTruthy();
    expect(api.calls('DELETE /api/auth/two-factor/passkeys/3')).toHaveLength(2);
  });
});
