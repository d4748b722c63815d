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
});
