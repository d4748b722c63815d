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
  // its button pressed while this code was on its way
  const [pressed] = useState(() => openOnArrival.has('user'));
  useEffect(() => openOnArrival.done('user'), []);
  return (
    // In the header rather than at the end of the body: the menu belongs to the banner landmark, as
    // every content of the page belongs to one (axe's `region`).
    <Menu position="bottom-end" shadow="md" width={220} withinPortal={false} defaultOpened={pressed}>
      <Menu.Target>
        <UserMenuButton email={profile.email} compact={compact} />
      </Menu.Target>
      <Menu.Dropdown>
        {myProjects && (
          <Menu.Item component={Link} to={localize('/select-account')} data-testid="menu-my-projects">
            {t('nav.myProjects')}
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={localize('/settings')} data-testid="menu-settings">
          {t('nav.settings')}
        </Menu.Item>
        {webhooks && (
          <Menu.Item component={Link} to={localize('/webhooks')} data-testid="menu-webhooks">
            {t('nav.webhooks')}
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={localize('/about')} data-testid="menu-about">
          {t('nav.about')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component={Link} to={localize('/logout')} data-testid="menu-logout">
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
