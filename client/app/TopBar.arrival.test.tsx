// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

/**
 * The top bar's menus come once the page has painted (TopBar.tsx, top-bar-menus-code.ts): until then
 * their buttons are stand-ins. Here the menus' code is held back, in modules of this test's own (the
 * set-up fetches the shared ones before every test).
 */
async function withHeldMenus() {
  vi.resetModules();
  let arrive!: () => void;
  const here = new Promise<void>((resolve) => (arrive = resolve));
  vi.doMock('./TopBarMenus', async () => {
    await here;
    return vi.importActual('./TopBarMenus');
  });
  const [{ TopBar }, { adminProfile, renderPage }, { fakeApi }] = await Promise.all([
    import('./TopBar'),
    import('../test/render'),
    import('../test/fake-api'),
  ]);
  fakeApi({
    'GET /api/notifications': () => ({
      status: 200,
      body: { data: [], offset: 0, total: 0, totalCapped: false, unread: 0, unreadCapped: false },
    }),
  });
  renderPage(<TopBar profile={adminProfile} />, { path: '/en', route: '/:locale/*', profile: adminProfile });
  return { arrive: () => act(async () => arrive()) };
}

describe('TopBar menus before their code has come', () => {
  it('opens the user menu as its code arrives when its stand-in was pressed meanwhile', async () => {
    const menus = await withHeldMenus();
    const button = screen.getByTestId('user-menu');
    button.focus();
    fireEvent.click(button);
    expect(screen.queryByTestId('menu-settings')).toBeNull();
    await menus.arrive();
    expect(await screen.findByTestId('menu-settings')).toBeTruthy();
    expect(screen.getByTestId('menu-logout')).toBeTruthy();
    // closed, it gives the focus back to its own button, which took it from the stand-in
    fireEvent.keyDown(screen.getByTestId('menu-settings'), { key: 'Escape' });
    await waitFor(() => expect(screen.getByTestId('user-menu').getAttribute('aria-expanded')).toBe('false'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('user-menu')));
  });

  it('hands the focus from a stand-in to the button that replaces it', async () => {
    const menus = await withHeldMenus();
    const standIn = screen.getByTestId('user-menu');
    standIn.focus();
    await menus.arrive();
    await waitFor(() => expect(screen.getByTestId('user-menu').getAttribute('aria-haspopup')).toBe('menu'));
    expect(screen.getByTestId('user-menu')).not.toBe(standIn);
    expect(document.activeElement).toBe(screen.getByTestId('user-menu'));
  });

  it('keeps the stand-ins, the same buttons, until the code has come, without opening anything', async () => {
    const menus = await withHeldMenus();
    expect(screen.getByTestId('user-menu').textContent).toContain('admin');
    expect(screen.getByTestId('notification-centre')).toBeTruthy();
    await menus.arrive();
    await waitFor(() => expect(screen.getByTestId('user-menu').getAttribute('aria-haspopup')).toBe('menu'));
    expect(screen.queryByTestId('menu-settings')).toBeNull();
  });
});
