import { CloseButton, Group, Loader, ScrollArea, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlight, Spotlight, useSpotlight } from '@mantine/spotlight';
import '@mantine/spotlight/styles.css';
import './search.css';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { DEBOUNCE_MS, TYPEAHEAD_MIN_CHARS } from '../../../common/constants';
import { SEARCH_KINDS, type SearchResult } from '../../../common/api/search';
import { errorText } from '../../api/client';
import { searchQuery } from '../../api/search';
import { useSmallScreen } from '../../components/layout';
import { SearchIcon } from '../../components/icons';
import { useTranslation } from '../../i18n/use-translation';
import { useLocalize } from '../locale';

/** The sheet's own store: it is opened by the top bar's button and keys (StaffSearch.tsx). */
const [store, actions] = createSpotlight();
export const openSearchSheet = actions.open;

/**
 * The staff's search sheet (docs/decisions/079-staff-search.md): Mantine's Spotlight with the query
 * held here, sent once typing pauses 300 ms from two characters on (spec 9, typeaheads), and the
 * results grouped by kind. It is a combobox: the field owns the listbox of results and names the
 * active one (aria-activedescendant), highlighted: the first result of every new search, then the one
 * the arrow keys reach; Enter opens its page, Escape closes the sheet. It fills the screen on a phone.
 */
export function SearchSheet() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const navigate = useNavigate();
  const phone = useSmallScreen();
  const [query, setQuery] = useState('');
  const [typed] = useDebouncedValue(query.trim(), DEBOUNCE_MS);
  const enough = [...typed].length >= TYPEAHEAD_MIN_CHARS;
  const results = useQuery({ ...searchQuery(typed), enabled: enough, placeholderData: keepPreviousData });
  const shown = useMemo(() => (enough ? (results.data?.data ?? []) : []), [enough, results.data]);
  const { opened } = useSpotlight(store);
  // Shown results are stale while the text typed has not been searched yet, or its answer is pending.
  const stale = query.trim() !== typed || results.isPlaceholderData;
  // The active option is the sheet's own, not the Spotlight's (which moves its choice in the page's
  // elements and its store, out of step with the results rendered): the first result of every new
  // search, then where the arrow keys move it.
  const [choice, setChoice] = useState({ search: typed, list: shown, index: 0 });
  let chosen = choice.index;
  if (choice.search !== typed || choice.list !== shown) {
    setChoice({ search: typed, list: shown, index: 0 });
    chosen = 0;
  }
  const selected = !stale && chosen < shown.length ? chosen : -1;
  const baseId = useId().replace(/:/g, '');
  const listId = `${baseId}-results`;
  const optionId = (index: number) => `${baseId}-result-${index}`;
  useEffect(() => {
    if (selected >= 0) document.getElementById(`${baseId}-result-${selected}`)?.scrollIntoView({ block: 'nearest' });
  }, [selected, baseId]);

  const groups = SEARCH_KINDS.map((kind) => ({ kind, items: shown.filter((r) => r.kind === kind) })).filter(
    (group) => group.items.length > 0,
  );
  const active = selected >= 0 ? optionId(selected) : undefined;
  const open = (result: SearchResult) => void navigate(localize(result.path));
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      if (selected < 0) return;
      open(shown[selected]);
      actions.close();
      return;
    }
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    if (selected < 0) return;
    const index = (selected + step + shown.length) % shown.length;
    setChoice({ search: typed, list: shown, index });
  };

  let status: string | null = null;
  if (!enough) status = t('search.hint', { count: TYPEAHEAD_MIN_CHARS });
  else if (results.isError) status = t('search.loadError', { error: errorText(results.error, '') });
  else if (results.isSuccess && !results.isPlaceholderData && shown.length === 0)
    status = t('search.empty', { query: typed });

  let index = 0;
  return (
    <Spotlight.Root
      store={store}
      shortcut={null}
      query={query}
      onQueryChange={setQuery}
      fullScreen={phone}
      scrollable
      maxHeight={phone ? 10_000 : 420}
      // the dialog is named by its title; a label on the root would stay in the page once it closes,
      // a named element outside every landmark (axe's `region`)
      title={t('search.title')}
      data-testid="search-sheet"
      onSpotlightClose={() => setQuery('')}
    >
      <Group gap={0} wrap="nowrap" align="center" pr={phone ? 'sm' : 0}>
        <Spotlight.Search
          flex={1}
          role="combobox"
          aria-label={t('search.label')}
          aria-expanded={opened && shown.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active}
          onKeyDown={onKeyDown}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('search.placeholder')}
          leftSection={<SearchIcon size={18} />}
          rightSection={results.isFetching ? <Loader size="xs" aria-label={t('search.loading')} /> : undefined}
          data-testid="search-input"
        />
        {phone && <CloseButton size="lg" aria-label={t('search.close')} onClick={() => actions.close()} />}
      </Group>
      {/* Not the Spotlight's list: that one hands the Spotlight its id, which then moves its own choice
          in it on the arrow keys and clicks it on Enter, beside the sheet's. Same look. */}
      <ScrollArea.Autosize
        type="scroll"
        scrollbarSize="var(--spotlight-actions-list-padding)"
        offsetScrollbars="y"
        className={Spotlight.classes.actionsList}
        id={listId}
        role="listbox"
        aria-label={t('search.label')}
        data-testid="search-results"
      >
        {groups.map((group) => (
          <Spotlight.ActionsGroup
            key={group.kind}
            label={t(`search.kinds.${group.kind}`)}
            role="group"
            aria-label={t(`search.kinds.${group.kind}`)}
            data-testid={`search-group-${group.kind}`}
          >
            {group.items.map((result) => {
              const at = index++;
              return (
                <Spotlight.Action
                  key={`${result.kind}-${result.key}`}
                  // the Spotlight keeps its `id` prop to itself: the option's own id, for aria-activedescendant
                  ref={(element: HTMLButtonElement | null) => {
                    if (element) element.id = optionId(at);
                  }}
                  role="option"
                  aria-selected={at === selected}
                  data-selected={at === selected || undefined}
                  label={result.title}
                  description={result.context}
                  onClick={() => open(result)}
                  data-testid="search-result"
                />
              );
            })}
          </Spotlight.ActionsGroup>
        ))}
      </ScrollArea.Autosize>
      <Text size="sm" c="dimmed" px="md" py="sm" role="status" data-testid="search-status">
        {status ?? (shown.length > 0 ? t('search.found', { count: shown.length }) : '')}
      </Text>
    </Spotlight.Root>
  );
}
