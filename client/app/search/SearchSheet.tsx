import { CloseButton, Group, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlight, Spotlight, useSpotlight } from '@mantine/spotlight';
import '@mantine/spotlight/styles.css';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
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
 * results grouped by kind. It is a combobox: the field owns the listbox of results and names the one
 * the arrow keys reach (aria-activedescendant); Enter opens its page, Escape closes the sheet. It
 * fills the screen on a phone.
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
  // The Spotlight moves its choice in its store without telling its subscribers: read it once its
  // own key handler (and the choice it makes when the text changes) has run.
  const [selected, setSelected] = useState(-1);
  const readSelected = () => setTimeout(() => setSelected(store.getState().selected), 0);
  const baseId = useId().replace(/:/g, '');
  const listId = `${baseId}-results`;
  const optionId = (index: number) => `${baseId}-result-${index}`;

  // New results: none chosen until an arrow key moves to one (the combobox's own pattern), rather
  // than the first of the previous list that the Spotlight chose as the text changed.
  useEffect(() => {
    document.querySelectorAll(`#${listId} [data-selected]`).forEach((el) => el.removeAttribute('data-selected'));
    store.updateState((state) => ({ ...state, selected: -1 }));
    setSelected(-1);
  }, [shown, listId]);

  const groups = SEARCH_KINDS.map((kind) => ({ kind, items: shown.filter((r) => r.kind === kind) })).filter(
    (group) => group.items.length > 0,
  );
  const active = selected >= 0 && selected < shown.length ? optionId(selected) : undefined;
  const open = (result: SearchResult) => void navigate(localize(result.path));

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
          onKeyDown={readSelected}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('search.placeholder')}
          leftSection={<SearchIcon size={18} />}
          rightSection={results.isFetching ? <Loader size="xs" aria-label={t('search.loading')} /> : undefined}
          data-testid="search-input"
        />
        {phone && <CloseButton size="lg" aria-label={t('search.close')} onClick={() => actions.close()} />}
      </Group>
      <Spotlight.ActionsList id={listId} role="listbox" aria-label={t('search.label')} data-testid="search-results">
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
                  label={result.title}
                  description={result.context}
                  onClick={() => open(result)}
                  data-testid="search-result"
                />
              );
            })}
          </Spotlight.ActionsGroup>
        ))}
      </Spotlight.ActionsList>
      <Text size="sm" c="dimmed" px="md" py="sm" role="status" data-testid="search-status">
        {status ?? (shown.length > 0 ? t('search.found', { count: shown.length }) : '')}
      </Text>
    </Spotlight.Root>
  );
}
