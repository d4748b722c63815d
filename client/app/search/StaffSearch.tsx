import { ActionIcon, Button } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { type ComponentType, useCallback, useEffect, useRef, useState } from 'react';
import { SearchIcon } from '../../components/icons';
import { useTranslation } from '../../i18n/use-translation';
import { withDeadline } from '../code-deadline';

type SheetModule = typeof import('./SearchSheet');

/**
 * The top bar's search for staff (docs/decisions/079-staff-search.md): a button, `/` and Ctrl/Cmd-K
 * from any page open the search sheet; not while typing in a field (Mantine's hotkeys ignore inputs,
 * text areas and selects). The sheet's code, with Mantine's Spotlight, is a chunk of its own,
 * fetched once the page is idle (or when the pointer nears the button, or on the first open): no
 * page waits for it.
 */
export function StaffSearch({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const [Sheet, setSheet] = useState<ComponentType | null>(null);
  const loading = useRef<Promise<SheetModule> | null>(null);

  const load = useCallback(() => {
    loading.current ??= withDeadline(import('./SearchSheet')).catch((error: unknown) => {
      loading.current = null;
      throw error;
    });
    return loading.current;
  }, []);
  // Fetched once the page is idle too, so that the keys typed right after `/` find the field there.
  useEffect(() => {
    const preload = () => void load().catch(() => undefined);
    if ('requestIdleCallback' in window) {
      const handle = window.requestIdleCallback(preload, { timeout: 5_000 });
      return () => window.cancelIdleCallback(handle);
    }
    // Safari has no idle callback
    const timer = setTimeout(preload, 2_000);
    return () => clearTimeout(timer);
  }, [load]);
  const open = useCallback(() => {
    void load().then((module) => {
      setSheet(() => module.SearchSheet);
      module.openSearchSheet();
    });
  }, [load]);

  useHotkeys([
    ['mod+K', open],
    ['/', open],
    // where "/" is a shifted key (French keyboards)
    ['shift+/', open],
  ]);

  const label = t('search.openLabel');
  return (
    <>
      {compact ? (
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={label}
          aria-keyshortcuts="/ Control+K Meta+K"
          title={label}
          onClick={open}
          onPointerEnter={() => void load()}
          data-testid="search-open"
        >
          <SearchIcon size={18} />
        </ActionIcon>
      ) : (
        <Button
          variant="default"
          size="compact-md"
          leftSection={<SearchIcon size={16} />}
          title={label}
          aria-label={label}
          aria-keyshortcuts="/ Control+K Meta+K"
          onClick={open}
          onPointerEnter={() => void load()}
          data-testid="search-open"
        >
          {t('search.open')}
        </Button>
      )}
      {Sheet && <Sheet />}
    </>
  );
}
