import { Menu } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Profile } from '../../common/api/auth';
import { useTranslation } from '../i18n/use-translation';
import { useLocalize } from './locale';
import { NotificationCentre as Centre } from './NotificationCentre';
import { openOnArrival, UserMenuButton } from './top-bar-buttons';

/** What the top bar opens over the page, loaded after its first paint (TopBar.tsx, decision 091). */

export function NotificationCentre() {
  const [pressed] = useState(() => openOnArrival.has('notifications'));
  useEffect(() => openOnArrival.done('notifications'), []);
  return <Centre defaultOpened={pressed} />;
}

export function UserMenu({
  profile,
  myProjects,
  webhooks,
  compact,
}: {
  profile: Profile;
  myProjects: boolean;
  webhooks: boolean;
  compact: boolean;
}) {
  const { t } = useTranslation();
  const localize = useLocalize();
  // its button pressed while this code was on its way: mounted closed, opened just after, once the
  // stand-in it replaced has handed the focus to its button (TopBar.tsx), so that closing it gives
  // the focus back there, as for a menu opened by a press
  const [pressed] = useState(() => openOnArrival.has('user'));
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    openOnArrival.done('user');
    if (pressed) setOpened(true);
  }, [pressed]);
  const pages: MenuLink[] = [
    { path: '/select-account', label: t('nav.myProjects'), testId: 'menu-my-projects', shown: myProjects },
    { path: '/settings', label: t('nav.settings'), testId: 'menu-settings' },
    { path: '/webhooks', label: t('nav.webhooks'), testId: 'menu-webhooks', shown: webhooks },
    { path: '/about', label: t('nav.about'), testId: 'menu-about' },
  ];
  const item = ({ path, label, testId }: MenuLink) => (
    <Menu.Item key={path} component={Link} to={localize(path)} data-testid={testId}>
      {label}
    </Menu.Item>
  );
  return (
    // In the header rather than at the end of the body: the menu belongs to the banner landmark, as
    // every content of the page belongs to one (axe's `region`).
    <Menu position="bottom-end" shadow="md" width={220} withinPortal={false} opened={opened} onChange={setOpened}>
      <Menu.Target>
        <UserMenuButton email={profile.email} compact={compact} />
      </Menu.Target>
      <Menu.Dropdown>
        {pages.filter((page) => page.shown ?? true).map(item)}
        <Menu.Divider />
        {item({ path: '/logout', label: t('nav.logout'), testId: 'menu-logout' })}
      </Menu.Dropdown>
    </Menu>
  );
}

/** An entry of the user menu: a link to a page of the portal, shown to all unless `shown` says otherwise. */
interface MenuLink {
  path: string;
  label: string;
  testId: string;
  shown?: boolean;
}
