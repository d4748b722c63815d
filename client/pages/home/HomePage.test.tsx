// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileCan } from '../../test/abilities';
import { adminProfile, renderPage } from '../../test/render';
import { HomePage } from './HomePage';

describe('HomePage', () => {
  it('welcomes the user by full name and offers the screens of the role', () => {
    renderPage(<HomePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Alice Martin' })).toBeTruthy();
    expect(screen.getByText('Your role: Administrator. Start from one of the screens below.')).toBeTruthy();
    const shortcuts = within(screen.getByRole('region', { name: 'Shortcuts' })).getAllByRole('link');
    expect(shortcuts.map((link) => link.getAttribute('href'))).toEqual([
      '/en/customers',
      '/en/products',
      '/en/analytics',
      '/en/users',
      '/en/webhooks',
      '/en/background-work',
      '/en/settings',
    ]);
  });

  it('offers a support engineer the customers and the settings only, in French', () => {
    renderPage(<HomePage />, {
      path: '/fr',
      profile: {
        ...adminProfile,
        type: 'supportEngineer',
        yourRole: 'supportEngineer',
        preferredLocale: 'fr',
        can: profileCan('supportEngineer', 'supportEngineer'),
      },
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Bienvenue, Alice Martin' })).toBeTruthy();
    const shortcuts = within(screen.getByRole('region', { name: 'Raccourcis' })).getAllByRole('link');
    expect(shortcuts.map((link) => link.getAttribute('href'))).toEqual(['/fr/customers', '/fr/settings']);
  });

  it('promises on the users shortcut only what the user form can do: a type is chosen at creation only', () => {
    for (const path of ['/en', '/fr']) {
      const { unmount } = renderPage(<HomePage />, { path });
      const text = screen.getByTestId('home-shortcut-users').textContent ?? '';
      expect(text).not.toMatch(/change a type|changer un type/);
      expect(text).toMatch(path === '/en' ? /add a colleague with their type/ : /ajouter un collègue avec son type/);
      unmount();
    }
  });
});
