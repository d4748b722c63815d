import { Anchor, Button, Group, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import type { Profile } from '../../common/api/auth';
import { STORAGE_KEYS } from '../../common/constants';
import { ChevronDownIcon, MailIcon } from '../components/icons';
import { useLocalize } from './locale';
import { NotificationCentre } from './NotificationCentre';
import { topBarLinks } from './navigation';
import { storage } from './storage';

function NavButton({ to, testId, label }: { to: string; testId: string; label: string }) {
  return (
    <Button component={NavLink} to={to} variant="subtle" size="compact-md" data-testid={testId}>
      {label}
    </Button>
  );
}

/** Spec 2 "Top bar": links by the signed-in user's role (profile.yourRole), per the capability table. */
export function TopBar({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const links = topBarLinks(profile, storage.get(STORAGE_KEYS.customer));
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="xs" wrap="nowrap" component="nav" aria-label={t('nav.main')} style={{ overflowX: 'auto' }}>
        <Anchor
          component={Link}
          to={localize(links.brand)}
          fw={700}
          size="lg"
          mr="md"
          data-testid="nav-brand"
          underline="never"
        >
          {t('app.name')}
        </Anchor>
        {links.home && (
          <NavButton to={localize(links.home.to)} testId="nav-home" label={t(`nav.${links.home.label}`)} />
        )}
        {links.customers && <NavButton to={localize('/customers')} testId="nav-customers" label={t('nav.customers')} />}
        {links.products && <NavButton to={localize('/products')} testId="nav-products" label={t('nav.products')} />}
        {links.users && <NavButton to={localize('/users')} testId="nav-users" label={t('nav.users')} />}
      </Group>
      <Group gap="xs" wrap="nowrap">
        {links.accountExecutiveEmail && (
          <Button
            component="a"
            href={`mailto:${links.accountExecutiveEmail}`}
            variant="subtle"
            size="compact-md"
            leftSection={<MailIcon size={16} />}
            title={links.accountExecutiveEmail}
            data-testid="nav-ae-contact"
          >
            {t('nav.contactAccountExecutive')}
          </Button>
        )}
        <NotificationCentre />
        <Menu position="bottom-end" shadow="md" width={220}>
          <Menu.Target>
            <Button
              variant="subtle"
              size="compact-md"
              rightSection={<ChevronDownIcon size={14} />}
              aria-label={t('nav.userMenu', { email: profile.email })}
              data-testid="user-menu"
            >
              {profile.email}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {links.myProjects && (
              <Menu.Item component={Link} to={localize('/select-account')} data-testid="menu-my-projects">
                {t('nav.myProjects')}
              </Menu.Item>
            )}
            <Menu.Item component={Link} to={localize('/settings')} data-testid="menu-settings">
              {t('nav.settings')}
            </Menu.Item>
            <Menu.Item component={Link} to={localize('/about')} data-testid="menu-about">
              {t('nav.about')}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item component={Link} to={localize('/logout')} data-testid="menu-logout">
              {t('nav.logout')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
