import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { DEBOUNCE_MS } from '../../common/constants';
import { SearchIcon } from './icons';

/**
 * The state of a searched, paged list (users, customers, the account picker): what is typed, the
 * filter sent once typing pauses 300 ms (spec 9), and the page offset, which a new filter resets to
 * the first page. Each filter and offset make their own query key, so a late answer to an older
 * search never replaces the newer one on screen (spec 4, "requests are sequenced").
 */
export function useSearchedPages() {
  const [search, setSearch] = useState('');
  const [filter] = useDebouncedValue(search.trim(), DEBOUNCE_MS);
  const [position, setPosition] = useState({ filter: '', offset: 0 });
  // A new search starts again from the first page.
  const offset = position.filter === filter ? position.offset : 0;
  const setOffset = (next: number) => setPosition({ filter, offset: next });
  return { search, setSearch, filter, offset, setOffset };
}

/** A previous page or search kept on screen while the new one is fetched: shown dimmed, with the loader. */
export const isStale = (query: { isPlaceholderData: boolean; isFetching: boolean }) =>
  query.isPlaceholderData && query.isFetching;

interface SearchBoxProps {
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
  testId: string;
}

/** The search field of a list page. */
export function SearchBox({ label, placeholder, value, onChange, autoFocus, testId }: SearchBoxProps) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<SearchIcon size={16} />}
      type="search"
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maw={400}
      data-testid={testId}
    />
  );
}
