// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderPublicPage } from '../../test/render';
import { ResetPasswordPage } from './ResetPasswordPage';

/** A usable link's check: the account's address comes with it. */
const CHECKED = { ok: true, email: 'casey.jordan@demo.portal' };

const renderReset = (path: string) =>
  renderPublicPage(<ResetPasswordPage token={path.split('/').at(-1) ?? ''} />, { path });

describe('ResetPasswordPage', () => {
  it('checks the token of the address on load and shows the invalid view with a way to a new link', async () => {
    const api = fakeApi({
      'GET /api/auth/check-password-reset': () => apiError(400, 'invalid_token', 'This token seems invalid'),
    });
    renderReset('/en/reset-password/spent-token');
    const alert = await screen.findByTestId('reset-invalid-token');
    expect(alert.textContent).toBe('This token seems invalid.');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/en/password-lost');
    expect(screen.queryByLabelText(/New password/)).toBeNull();
    expect(api.calls('GET /api/auth/check-password-reset')[0].query.get('passwordResetToken')).toBe('spent-token');
  });

  it('reads an unknown token (404) as an invalid one too, not as a generic failure', async () => {
    fakeApi({ 'GET /api/auth/check-password-reset': () => apiError(404, 'not_found', 'Not found') });
    renderReset('/en/reset-password/unknown');
    expect((await screen.findByTestId('reset-invalid-token')).textContent).toBe('This token seems invalid.');
  });

  it('says it in French on the French page', async () => {
    fakeApi({
      'GET /api/auth/check-password-reset': () => apiError(400, 'invalid_token', 'This token seems invalid'),
    });
    renderReset('/fr/reset-password/spent-token');
    expect((await screen.findByTestId('reset-invalid-token')).textContent).toBe('Ce jeton semble invalide.');
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' }).getAttribute('href')).toBe(
      '/fr/password-lost',
    );
  });

  it('shows the form, with the rules tied to the field, for a valid token', async () => {
    fakeApi({ 'GET /api/auth/check-password-reset': () => ({ status: 200, body: CHECKED }) });
    renderReset('/en/reset-password/fresh-token');
    const password = await screen.findByLabelText(/^New password/);
    expect(screen.getByLabelText(/^Confirm password/)).toBeTruthy();
    expect(screen.queryByTestId('reset-invalid-token')).toBeNull();
    const rules = document.getElementById(password.getAttribute('aria-describedby') ?? '');
    expect(rules?.textContent).toContain('At least 15 characters');
  });

  it('checks the rule and the confirmation before sending, and focuses the first problem', async () => {
    const api = fakeApi({ 'GET /api/auth/check-password-reset': () => ({ status: 200, body: CHECKED }) });
    renderReset('/en/reset-password/fresh-token');
    const password = await screen.findByLabelText(/^New password/);
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('The passwords do not match.')).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(api.calls('PATCH /api/auth/reset-password')).toHaveLength(0);
  });

  it('goes to the sign-in page with the account’s e-mail once the password is changed', async () => {
    const api = fakeApi({
      'GET /api/auth/check-password-reset': () => ({ status: 200, body: CHECKED }),
      'PATCH /api/auth/reset-password': () => ({ status: 200, body: { ok: true, email: 'casey@demo.portal' } }),
    });
    renderReset('/en/reset-password/fresh-token');
    const password = 'A-Much-Longer-Password-2024!';
    fireEvent.change(await screen.findByLabelText(/^New password/), { target: { value: password } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: password } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));

    const location = screen.getByTestId('location');
    await waitFor(() => expect(location.textContent).toBe('/en/login'));
    expect(window.location.pathname).toBe('/en/login');
    expect(JSON.parse(location.getAttribute('data-state') ?? 'null')).toEqual({
      email: 'casey@demo.portal',
      passwordChanged: true,
    });
    expect(api.calls('PATCH /api/auth/reset-password')[0].body).toEqual({
      passwordResetToken: 'fresh-token',
      password,
    });
  });
  it('refuses a password made of the account’s address before sending, on the field with the focus', async () => {
    const api = fakeApi({ 'GET /api/auth/check-password-reset': () => ({ status: 200, body: CHECKED }) });
    renderReset('/en/reset-password/fresh-token');
    const password = await screen.findByLabelText(/^New password/);
    // the characters' rules pass: only the address's words make it
    const typed = 'Casey.Jordan@Demo.portal1';
    fireEvent.change(password, { target: { value: typed } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: typed } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(
      await screen.findByText("The password must not be made of your e-mail address, your name or the portal's name."),
    ).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(api.calls('PATCH /api/auth/reset-password')).toHaveLength(0);
  });

  it('shows the server’s refusal of a common password on the field, with the focus, in French too', async () => {
    const api = fakeApi({
      'GET /api/auth/check-password-reset': () => ({ status: 200, body: CHECKED }),
      'PATCH /api/auth/reset-password': () =>
        apiError(400, 'validation_error', 'password: too easy', [
          { path: 'password', message: 'password.error.common' },
        ]),
    });
    renderReset('/fr/reset-password/fresh-token');
    const password = await screen.findByLabelText(/^Nouveau mot de passe/);
    const typed = 'Sunshine-Sunshine-2024!';
    fireEvent.change(password, { target: { value: typed } });
    fireEvent.change(screen.getByLabelText(/^Confirmer/), { target: { value: typed } });
    const submit = screen.getByRole('button', { name: /nitialiser/ });
    fireEvent.click(submit);
    await waitFor(() => expect(api.calls('PATCH /api/auth/reset-password')).toHaveLength(1));
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(password.getAttribute('aria-invalid')).toBe('true');
    const described = (password.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    expect(described).toContain('Le mot de passe est trop facile à deviner');
  });
});
