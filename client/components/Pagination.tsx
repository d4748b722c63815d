import { ActionIcon, Group, Text } from '@mantine/core';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { offsetOfPage, pageInfo } from '../../common/pagination';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

interface PaginationProps {
  offset: number;
  pageLength: number;
  total: number;
  /** the list has more than `total` entries (its count stopped there): next stays open */
  totalCapped?: boolean;
  onChange: (offset: number) => void;
}

type Direction = 'previous' | 'next';

/**
 * Spec 2 "Pagination control": page X of Y with back and next, only when there is more than one page.
 * Reaching the last (or first) page disables the button just pressed; a disabled button cannot keep
 * the focus, so it moves to the other one instead of falling back to the top of the page.
 */
export function Pagination({ offset, pageLength, total, totalCapped = false, onChange }: PaginationProps) {
  const { t } = useTranslation();
  const info = pageInfo(offset, pageLength, total, totalCapped);
  const buttons = { previous: useRef<HTMLButtonElement>(null), next: useRef<HTMLButtonElement>(null) };
  // The button pressed and the page it was pressed on, until the list shows another page.
  const pressed = useRef<{ direction: Direction; offset: number } | null>(null);
  const disabled: Record<Direction, boolean> = { previous: !info.canGoBack, next: !info.canGoNext };

  useLayoutEffect(() => {
    if (!pressed.current || pressed.current.offset === offset) return;
    const from = pressed.current.direction;
    pressed.current = null;
    if (!disabled[from]) return;
    const left = buttons[from].current;
    // Only when the focus was still on the button: a user who moved on keeps their place.
    const active = document.activeElement;
    if (active === left || active === document.body || active === null) {
      buttons[from === 'next' ? 'previous' : 'next'].current?.focus();
    }
  });

  const go = (direction: Direction) => {
    pressed.current = { direction, offset };
    onChange(offsetOfPage(info.page + (direction === 'next' ? 1 : -1), pageLength));
  };

  if (!info.visible) return null;
  return (
    <Group component="nav" aria-label={t('pagination.label')} gap="xs" data-testid="pagination">
      <ActionIcon
        ref={buttons.previous}
        variant="default"
        aria-label={t('pagination.previous')}
        disabled={disabled.previous}
        onClick={() => go('previous')}
      >
        <ChevronLeftIcon />
      </ActionIcon>
      <Text size="sm" aria-live="polite">
        {t(totalCapped ? 'pagination.pageOfMore' : 'pagination.page', {
          page: info.page + 1,
          pageCount: info.pageCount,
        })}
      </Text>
      <ActionIcon
        ref={buttons.next}
        variant="default"
        aria-label={t('pagination.next')}
        disabled={disabled.next}
        onClick={() => go('next')}
      >
        <ChevronRightIcon />
      </ActionIcon>
    </Group>
  );
}
