// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Shell } from '../../app/Shell';
import { fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { LogoutPage } from './LogoutPage';

function renderLogout() {
  return renderPage(
    <Shell>
      <LogoutPage />
    </Shell>,
    { path: '/en/logout', route: '/:locale/logout' },
  );
}

describe('LogoutPage', () => {
  it('signs out and the top bar gives way to the public header', async () => {
    // The answer waits until the top bar (fetched on its own, decision 020) is on screen.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const api = fakeApi({
      'POST /api/auth/logout': async () => {
        await answered;
        return { status: 204 };
      },
    });
    renderLogout();
    // Signed in: the top bar with the user menu.
    expect(await screen.findByTestId('user-menu')).toBeTruthy();
    answer();

    expect(await screen.findByText('You are signed out.')).toBeTruthy();
    expect(api.calls('POST /api/auth/logout')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId('user-menu')).toBeNull());
    expect(screen.queryByTestId('nav-users')).toBeNull();
    expect(screen.queryByText('admin@demo.portal')).toBeNull();
    // The public header: the language switch instead of the user menu.
    expect(screen.getByTestId('language-switch')).toBeTruthy();
  });

  it('forgets the session even when the server cannot be reached', async () => {
    fakeApi({ 'POST /api/auth/logout': () => 'network-error' });
    const { queryClient } = renderLogout();
    expect(await screen.findByText('You are signed out.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('user-menu')).toBeNull());
    expect(queryClient.getQueryData(['auth', 'me'])).toBeNull();
  });

  it('performs the OpenID Connect logout handshake (spec 4 and 7)', async () => {
    const api = fakeApi({
      'POST /api/auth/logout': () => ({ status: 204 }),
      'GET /oidc/session/end': () => ({ status: 200, body: { xsrf: 'the-xsrf-value' } }),
      'POST /oidc/session/end/confirm': () => ({ status: 200 }),
    });
    renderLogout();
    expect(await screen.findByText('You are signed out.')).toBeTruthy();
    expect(api.calls('GET /oidc/session/end')).toHaveLength(1);
    const [confirm] = api.calls('POST /oidc/session/end/confirm');
    expect(confirm.body).toEqual({ xsrf: 'the-xsrf-value', logout: 'yes' });
    expect(confirm.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
  });

  it('signs out of the portal all the same when the handshake fails', async () => {
    const api = fakeApi({
      'POST /api/auth/logout': () => ({ status: 204 }),
      'GET /oidc/session/end': () => 'network-error',
    });
    renderLogout();
    expect(await screen.findByText('You are signed out.')).toBeTruthy();
    expect(api.calls('POST /api/auth/logout')).toHaveLength(1);
    expect(api.calls('POST /oidc/session/end/confirm')).toHaveLength(0);
  });
});
