import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DEBOUNCE_MS } from '../../common/constants';
import { DEFAULT_PAGE_LENGTH, offsetOfPage } from '../../common/pagination';
import { SearchIcon } from './icons';

interface SearchedPagesOptions<Sort extends string> {
  /** names the list's parameters in the address when a page holds more than one list (`members-q`) */
  prefix?: string;
  pageLength?: number;
  /** the orders the list offers, the first one its default */
  sorts?: readonly Sort[];
}

/** The address parameters of a list: `q` (the filter), `page` (from 1) and `sort`, each left out at its default. */
export const listParamNames = (prefix = '') => ({ q: `${prefix}q`, page: `${prefix}page`, sort: `${prefix}sort` });

/**
 * The state of a searched, paged list (users, customers, the account picker, a customer's team): what
 * is typed, the filter sent once typing pauses 300 ms (spec 9), the page and the order. Filter, page
 * and order live in the address, so Back and a shared link bring the same list back; a new page is
 * a step in the history, a new filter or order replaces the current step and starts again from the
 * first page. Each filter and offset make their own query key, so a late answer to an older search
 * never replaces the newer one on screen (spec 4, "requests are sequenced").
 */
export function useSearchedPages<Sort extends string = never>({
  prefix = '',
  pageLength = DEFAULT_PAGE_LENGTH,
  sorts = [],
}: SearchedPagesOptions<Sort> = {}) {
  const names = listParamNames(prefix);
  const [params, setParams] = useSearchParams();
  const filter = (params.get(names.q) ?? '').trim();
  const { offset, setOffset } = usePageInAddress(names.page, pageLength);
  const askedSort = params.get(names.sort);
  const sort = sorts.find((s) => s === askedSort) ?? sorts[0];

  const [search, setSearch] = useState(filter);
  const [typed] = useDebouncedValue(search.trim(), DEBOUNCE_MS);
  // The filter this list last put in the address: another one there came from Back or a link.
  const written = useRef(filter);
  useEffect(() => {
    if (filter === written.current) return;
    written.current = filter;
    setSearch(filter);
  }, [filter]);
  useEffect(() => {
    if (typed === written.current) return;
    written.current = typed;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (typed) next.set(names.q, typed);
        else next.delete(names.q);
        next.delete(names.page);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [typed, names.q, names.page, setParams]);

  const setSort = (nextSort: Sort) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (nextSort === sorts[0]) next.delete(names.sort);
        else next.set(names.sort, nextSort);
        next.delete(names.page);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  return { search, setSearch, filter, offset, setOffset, sort, setSort };
}

/**
 * The page of a list, kept in the address parameter `name` (counted from 1, left out on the first
 * page): each new page is a step in the history, so Back shows the page before, and a shared link
 * opens the same page.
 */
/** The offset of the page that the address parameter `name` holds (from 1; the first page otherwise). */
export function pageOffsetInAddress(params: URLSearchParams, name: string, pageLength: number): number {
  const raw = params.get(name) ?? '';
  const page = /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1;
  return offsetOfPage(page - 1, pageLength);
}

export function usePageInAddress(name: string, pageLength: number) {
  const [params, setParams] = useSearchParams();
  const offset = pageOffsetInAddress(params, name, pageLength);
  const setOffset = (nextOffset: number) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        const nextPage = Math.floor(Math.max(0, nextOffset) / pageLength) + 1;
        if (nextPage > 1) next.set(name, String(nextPage));
        else next.delete(name);
        return next;
      },
      { preventScrollReset: true },
    );
  return { offset, setOffset };
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
