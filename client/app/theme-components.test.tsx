// @vitest-environment jsdom
import { Button, MantineProvider, Menu, Modal } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

/** What axe checks in the browser, checked here on the theme's defaults for every menu and dialog. */
describe('theme defaults for menus and dialogs', () => {
  it('a menu holds only menu items, labels and dividers (no focus placeholder)', () => {
    render(
      <MantineProvider env="test" theme={theme}>
        <Menu>
          <Menu.Target>
            <Button>Open</Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Account</Menu.Label>
            <Menu.Item>Settings</Menu.Item>
            <Menu.Divider />
            <Menu.Item>Logout</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const menu = screen.getByRole('menu');
    const roles = [...menu.children].map((child) => child.getAttribute('role'));
    // ARIA lets a menu own menu items, groups and separators; a role="presentation" child is refused.
    expect(roles).not.toContain('presentation');
    expect(roles.filter((role) => role === 'menuitem')).toHaveLength(2);
  });

  it('a modal adds no banner landmark: its header is not a <header>', () => {
    render(
      <MantineProvider env="test" theme={theme}>
        <Modal opened onClose={() => undefined} title="Add a user">
          Body
        </Modal>
      </MantineProvider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Add a user' });
    expect(dialog.querySelector('header')).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
  });
});
