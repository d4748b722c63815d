/** Pagination maths (spec section 2, "Pagination control"). Lists use offsets. */
export const CUSTOMERS_PAGE_LENGTH = 10;
export const DEFAULT_PAGE_LENGTH = 10;
export const MAX_PAGE_LENGTH = 100;

interface PageInfo {
  /** zero-based page number: offset divided by page length */
  page: number;
  pageCount: number;
  visible: boolean;
  canGoBack: boolean;
  canGoNext: boolean;
}

/** `totalCapped`: the list has more than `total` entries (see countCap), so there is always a next page. */
export function pageInfo(offset: number, pageLength: number, total: number, totalCapped = false): PageInfo {
  const length = Math.max(1, pageLength);
  const page = Math.floor(Math.max(0, offset) / length);
  const pageCount = Math.max(1, Math.ceil(Math.max(0, total) / length));
  return {
    page,
    pageCount,
    visible: pageCount > 1 || totalCapped,
    canGoBack: page > 0,
    canGoNext: page < pageCount - 1 || totalCapped,
  };
}

export function offsetOfPage(page: number, pageLength: number): number {
  return Math.max(0, page) * pageLength;
}

/**
 * Lists count their matches only up to a cap, so a first page costs the same at 1k rows as at 100k
 * (docs/decisions/013-search-at-scale.md). The cap is 1,000, raised in steps of 1,000 for pages that
 * lie beyond it, so paging on never runs out of pages.
 */
export const COUNT_CAP_STEP = 1000;

/**
 * The customer list's text searches count up to 100 (then 200, 300... for pages beyond): a search
 * matching many names must see every match it counts, row by row, on PostgreSQL, and 1,001 of them
 * cost more than the page itself (docs/decisions/049-dense-searches.md). The UI says "more than 100".
 */
export const SEARCH_COUNT_CAP_STEP = 100;

export function countCap(offset: number, pageLength: number, step: number = COUNT_CAP_STEP): number {
  return step * Math.max(1, Math.ceil((Math.max(0, offset) + Math.max(1, pageLength)) / step));
}
