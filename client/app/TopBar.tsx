import { Burger, Button, Divider, type DrawerProps, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ComponentType, type FocusEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useLocation, useMatch } from 'react-router';
import type { Profile } from '../../common/api/auth';
import { STORAGE_KEYS } from '../../common/constants';
import { MailIcon } from '../components/icons';
import { lazyDialog } from '../components/lazy-dialog';
import { useCompactTopBar, useSmallScreen } from '../components/layout';
import { BrandLink } from '../components/Logo';
import { useLocalize } from './locale';
import { StaffSearch } from './search/StaffSearch';
import { type TopBarLinks, topBarLinks } from './navigation';
import { whenIdle } from './lazy-code';
import { storage } from './storage';
import { topBarMenus } from './top-bar-menus-code';
import { BellButton, openOnArrival, UserMenuButton } from './top-bar-buttons';

// The user menu and the notification centre open over the page (Menu, Popover and floating-ui
// under them): their code is asked for once the browser is idle after the bar's first render has been
// committed (the page's first paint), not during it; in its place a button of the same size, which keeps the focus when the
// real one replaces it and opens the real one as it arrives if it was pressed meanwhile (decisions
// 091 and 092).
const menus = topBarMenus;
// The burger's drawer (Mantine's Drawer, its focus trap and scroll lock) comes when first opened.
const Drawer = lazyDialog(() => import('./nav-drawer').then((module) => module.Drawer as ComponentType<DrawerProps>));

interface NavItem {
  to: string;
  testId: string;
  label: string;
}

function navItems(links: TopBarLinks, t: (key: string) => string, localize: (path: string) => string): NavItem[] {
  const items: NavItem[] = [];
  if (links.home) items.push({ to: localize(links.home.to), testId: 'nav-home', label: t(`nav.${links.home.label}`) });
  if (links.customers) items.push({ to: localize('/customers'), testId: 'nav-customers', label: t('nav.customers') });
  if (links.products) items.push({ to: localize('/products'), testId: 'nav-products', label: t('nav.products') });
  if (links.users) items.push({ to: localize('/users'), testId: 'nav-users', label: t('nav.users') });
  return items;
}

/**
 * A top-bar link. The current one (its page or a page under it, e.g. a product under Products) says
 * so to assistive technology (aria-current) and to the eye by more than colour: a filled background
 * and an underline.
 */
function NavButton({ item, stacked = false, onFollow }: { item: NavItem; stacked?: boolean; onFollow?: () => void }) {
  const active = useMatch({ path: item.to, end: false }) !== null;
  return (
    <Button
      component={Link}
      to={item.to}
      variant={active ? 'light' : 'subtle'}
      size={stacked ? 'md' : 'compact-md'}
      fullWidth={stacked}
      justify={stacked ? 'flex-start' : undefined}
      aria-current={active ? 'page' : undefined}
      data-active={active || undefined}
      data-testid={item.testId}
      onClick={onFollow}
      style={active ? { textDecoration: 'underline', textDecorationThickness: 2, textUnderlineOffset: 6 } : undefined}
    >
      {item.label}
    </Button>
  );
}

function AccountExecutiveContact({
  email,
  stacked = false,
  onFollow,
}: {
  email: string;
  stacked?: boolean;
  onFollow?: () => void;
}) {
  const { t } = useTranslation();
  if (stacked) {
    // In the menu, narrower than the words: the label wraps and the address shows under it.
    return (
      <UnstyledButton
        component="a"
        href={`mailto:${email}`}
        px="md"
        py="xs"
        data-testid="nav-ae-contact"
        onClick={onFollow}
        style={{ borderRadius: 'var(--mantine-radius-default)' }}
      >
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <MailIcon size={16} style={{ marginTop: 3, flexShrink: 0, color: 'var(--mantine-primary-color-filled)' }} />
          <div style={{ minWidth: 0 }}>
            <Text fw={600} c="var(--mantine-primary-color-filled)">
              {t('nav.contactAccountExecutive')}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {email}
            </Text>
          </div>
        </Group>
      </UnstyledButton>
    );
  }
  return (
    <Button
      component="a"
      href={`mailto:${email}`}
      variant="subtle"
      size="compact-md"
      leftSection={<MailIcon size={16} />}
      title={email}
      data-testid="nav-ae-contact"
    >
      {t('nav.contactAccountExecutive')}
    </Button>
  );
}

/**
 * Spec 2 "Top bar": links by the signed-in user's role (profile.yourRole), per the capability table.
 * On a phone or a narrow window the links and the account executive's contact move into a burger menu
 * (a drawer), so the notification centre and the user menu always stay on screen.
 */
export function TopBar({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const compact = useCompactTopBar();
  const phone = useSmallScreen();
  const [drawerOpened, drawer] = useDisclosure(false);
  const { pathname } = useLocation();
  // The account on screen, else the one last viewed (the account page stores it once loaded, after
  // this bar has rendered: reading the address keeps the bar on the account being shown).
  const onScreen = useMatch('/:locale/accounts/:id')?.params.id;
  const account = onScreen && /^\d{1,10}$/.test(onScreen) ? onScreen : storage.get(STORAGE_KEYS.customer);
  const links = topBarLinks(profile, account);
  const items = navItems(links, t, localize);
  const hasMenu = items.length > 0 || links.accountExecutiveEmail !== null;

  // The menus' code: asked for when the browser is idle after this first render's commit, at once
  // when a stand-in is pressed;
  // a fetch that fails after a press goes to the error boundary, as a page's own code does.
  const Menus = menus.useLoaded();
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  useEffect(() => {
    if (!Menus) whenIdle(() => void menus.fetch().catch(() => {}));
  }, [Menus]);
  const press = (opener: 'user' | 'notifications') => {
    openOnArrival.want(opener);
    menus.fetch().catch((error: unknown) => setFailure({ error }));
  };
  // A stand-in that has the focus as the real button replaces it hands the focus on.
  const focusedStandIn = useRef<string | null>(null);
  const standInFocus = {
    onFocus: (event: FocusEvent<HTMLElement>) => (focusedStandIn.current = event.currentTarget.dataset.testid ?? null),
    onBlur: () => (focusedStandIn.current = null),
  };
  useLayoutEffect(() => {
    const testId = focusedStandIn.current;
    if (!Menus || !testId) return;
    focusedStandIn.current = null;
    document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)?.focus();
  }, [Menus]);
  if (failure) throw failure.error;

  // Following a link of the drawer, or widening the window past the compact width, closes it.
  const closeDrawer = drawer.close;
  useEffect(() => closeDrawer(), [pathname, compact, closeDrawer]);

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {compact && hasMenu && (
          <Burger
            opened={drawerOpened}
            onClick={drawer.toggle}
            size="sm"
            aria-label={t('nav.menu')}
            aria-expanded={drawerOpened}
            data-testid="nav-burger"
          />
        )}
        <BrandLink to={localize(links.brand)} compact={phone} />
        {!compact && items.length > 0 && (
          <Group gap="xs" wrap="nowrap" component="nav" aria-label={t('nav.main')} ml="sm">
            {items.map((item) => (
              <NavButton key={item.testId} item={item} />
            ))}
          </Group>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {!compact && links.accountExecutiveEmail && <AccountExecutiveContact email={links.accountExecutiveEmail} />}
        {links.search && <StaffSearch compact={compact} />}
        {Menus ? <Menus.NotificationCentre /> : <BellButton onClick={() => press('notifications')} {...standInFocus} />}
        {Menus ? (
          <Menus.UserMenu profile={profile} myProjects={links.myProjects} webhooks={links.webhooks} compact={phone} />
        ) : (
          <UserMenuButton email={profile.email} compact={phone} onClick={() => press('user')} {...standInFocus} />
        )}
      </Group>
      {compact && hasMenu && (
        <Drawer
          opened={drawerOpened}
          onClose={drawer.close}
          title={t('nav.menu')}
          size={300}
          closeButtonProps={{ 'aria-label': t('app.close') }}
          data-testid="nav-drawer"
        >
          <Stack gap="xs">
            {items.length > 0 && (
              <Stack gap={4} component="nav" aria-label={t('nav.main')}>
                {items.map((item) => (
                  // The current page's link changes no address: close the menu on any follow.
                  <NavButton key={item.testId} item={item} stacked onFollow={drawer.close} />
                ))}
              </Stack>
            )}
            {items.length > 0 && links.accountExecutiveEmail && <Divider />}
            {links.accountExecutiveEmail && (
              <AccountExecutiveContact email={links.accountExecutiveEmail} stacked onFollow={drawer.close} />
            )}
          </Stack>
        </Drawer>
      )}
    </Group>
  );
}
