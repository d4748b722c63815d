import { ActionIcon, Button, Indicator } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import { BellIcon, ChevronDownIcon } from '../components/icons';
import { useTranslation } from '../i18n/use-translation';

type Opener = 'user' | 'notifications';
const pressed = new Set<Opener>();

/**
 * The top bar's buttons whose menus come after its first paint (TopBar.tsx): one pressed meanwhile
 * is remembered, and its menu opens as it arrives instead of the press being lost.
 */
export const openOnArrival = {
  want: (opener: Opener) => void pressed.add(opener),
  has: (opener: Opener) => pressed.has(opener),
  done: (opener: Opener) => void pressed.delete(opener),
};

type ButtonProps = Omit<ComponentPropsWithRef<'button'>, 'color' | 'style'>;

/** The user menu's button, the same before its menu's code has come (a stand-in) and after. */
export function UserMenuButton({ email, compact, ...props }: { email: string; compact: boolean } & ButtonProps) {
  const { t } = useTranslation();
  return (
    <Button
      variant="subtle"
      size="compact-md"
      rightSection={<ChevronDownIcon size={14} />}
      aria-label={t('nav.userMenu', { email })}
      title={email}
      data-testid="user-menu"
      // A long address is cut short on a phone rather than pushing the bar past the screen, its
      // whole text in the title and the name: the one label that may shorten (app.css).
      maw={compact ? 220 : 320}
      styles={{ root: { minWidth: 0 }, inner: { minWidth: 0 }, label: { minWidth: 0 } }}
      data-shortens
      {...props}
    >
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{email}</span>
    </Button>
  );
}

/** The notification centre's bell as it paints before the centre's code has come: same size, no count yet. */
export function BellButton(props: Pick<ButtonProps, 'onClick' | 'onFocus' | 'onBlur'>) {
  const { t } = useTranslation();
  return (
    <Indicator size={16} disabled offset={4} color="red">
      <ActionIcon
        variant="subtle"
        size="lg"
        {...props}
        aria-label={t('notificationCentre.open')}
        data-testid="notification-centre"
        data-unread={0}
      >
        <BellIcon />
      </ActionIcon>
    </Indicator>
  );
}
