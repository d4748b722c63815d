import { z } from 'zod/mini';
import { TYPEAHEAD_MIN_CHARS } from '../constants';
import { givenOnce, wholeNumber } from './common';

/** The kinds of things the staff's search box finds, in the order it shows them. */
export const SEARCH_KINDS = ['customer', 'user', 'member', 'licence', 'product', 'version'] as const;

/** Results of each kind by default, and at most (the search box shows a few of each, it does not page). */
const SEARCH_DEFAULT_LIMIT = 5;
const SEARCH_MAX_LIMIT = 20;
/** The longest text searched: a name, an e-mail address or a version is far shorter. */
const SEARCH_MAX_LENGTH = 100;

/**
 * `GET /api/search?q=&limit=`: `q` at least two characters once trimmed (spec section 9, typeaheads),
 * matched as plain text; `limit` is per kind.
 */
export const SearchQuery = z.object({
  q: z.string({ error: givenOnce }).check(z.trim(), z.minLength(TYPEAHEAD_MIN_CHARS), z.maxLength(SEARCH_MAX_LENGTH)),
  limit: z._default(wholeNumber(1, SEARCH_MAX_LIMIT), SEARCH_DEFAULT_LIMIT),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/**
 * One thing found: `key` tells it from the others of its kind, `context` is the line under the title
 * (an e-mail address, a customer's key, a licence's product and end date), and `path` the portal page
 * it opens, without the locale (`/accounts/12`, `/products/graph`, `/users?q=…`).
 */
export const SearchResult = z.object({
  kind: z.enum(SEARCH_KINDS),
  key: z.string(),
  title: z.string(),
  context: z.string(),
  path: z.string(),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** The results, grouped by kind in the order of SEARCH_KINDS; a kind the caller may not see is absent. */
export const SearchResults = z.object({ data: z.array(SearchResult) });
export type SearchResults = z.infer<typeof SearchResults>;
