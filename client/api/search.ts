import { queryOptions } from '@tanstack/react-query';
import { SearchResults } from '../../common/api/search';
import { api } from './client';

/** Query keys of the staff's search box: each text its own, so a late answer never replaces a newer one. */
const searchKeys = {
  all: ['search'] as const,
  text: (q: string) => ['search', q] as const,
};

/** GET /api/search: a few results of each kind the caller may see, grouped by kind. */
export const searchQuery = (q: string) =>
  queryOptions({
    queryKey: searchKeys.text(q),
    queryFn: ({ signal }) => api.get('/search', { query: { q }, schema: SearchResults, signal }),
    staleTime: 30_000,
  });
