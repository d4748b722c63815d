// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { ConfirmEmailPage } from './ConfirmEmailPage';

const renderConfirm = (path: string) =>
  renderPage(<ConfirmEmailPage />, { path, route: '/:locale/confirm-email/:token', profile: null });

const state = () => screen.getByTestId('confirm-email').getAttribute('data-state');

describe('ConfirmEmailPage', () => {
  it('sends the token once and shows the new address', async () => {
    const api = fakeApi({
      'POST /api/auth/confirm-email': () => ({ status: 200, body: { email: 'new@demo.portal' } }),
    });
    renderConfirm('/en/confirm-email/tok-123');
    expect(await screen.findByText('Your e-mail address is now new@demo.portal.')).toBeTruthy();
    expect(api.calls('POST /api/auth/confirm-email').map((c) => c.body)).toEqual([{ token: 'tok-123' }]);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/en/login');
  });

  it('says in French that a used or expired link is invalid', async () => {
    fakeApi({ 'POST /api/auth/confirm-email': () => apiError(400, 'invalid_token', 'This link is invalid') });
    renderConfirm('/fr/confirm-email/old');
    await waitFor(() => expect(state()).toBe('invalid'));
    expect(screen.getByRole('alert').textContent).toBe(
      'Ce lien est invalide ou a expiré. Demandez à nouveau le changement depuis vos paramètres.',
    );
  });

  it('explains an address taken meanwhile', async () => {
    fakeApi({ 'POST /api/auth/confirm-email': () => apiError(409, 'email_taken', 'taken') });
    renderConfirm('/en/confirm-email/late');
    await waitFor(() => expect(state()).toBe('taken'));
    expect(screen.getByRole('alert').textContent).toContain('now used by another account');
  });
});
