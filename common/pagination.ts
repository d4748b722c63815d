/** Pagination maths (spec section 2, "Pagination control"). Lists use offsets. */
export const CUSTOMERS_PAGE_LENGTH = 10;
export const DEFAULT_PAGE_LENGTH = 10;
export const MAX_PAGE_LENGTH = 100;

export interface PageInfo {
  /** zero-based page number: offset divided by page length */
  page: number;
  pageCount: number;
  visible: boolean;
  canGoBack: boolean;
  canGoNext: boolean;
}

export function pageInfo(offset: number, pageLength: number, total: number): PageInfo {
  const length = Math.max(1, pageLength);
  const page = Math.floor(Math.max(0, offset) / length);
  const pageCount = Math.max(1, Math.ceil(Math.max(0, total) / length));
  return {
    page,
    pageCount,
    visible: pageCount > 1,
    canGoBack: page > 0,
    canGoNext: page < pageCount - 1,
  };
}

export function offsetOfPage(page: number, pageLength: number): number {
  return Math.max(0, page) * pageLength;
}
