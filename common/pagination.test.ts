import { describe, expect, it } from 'vitest';
import {
  COUNT_CAP_STEP,
  countCap,
  CUSTOMERS_PAGE_LENGTH,
  offsetOfPage,
  pageInfo,
  SEARCH_COUNT_CAP_STEP,
} from './pagination';

describe('pageInfo', () => {
  it('is shown only when there is more than one page', () => {
    expect(pageInfo(0, 10, 0).visible).toBe(false);
    expect(pageInfo(0, 10, 1).visible).toBe(false);
    expect(pageInfo(0, 10, 10).visible).toBe(false);
    expect(pageInfo(0, 10, 11).visible).toBe(true);
  });

  it('numbers pages as offset divided by page length', () => {
    expect(pageInfo(0, 10, 35).page).toBe(0);
    expect(pageInfo(10, 10, 35).page).toBe(1);
    expect(pageInfo(30, 10, 35).page).toBe(3);
    expect(pageInfo(25, 5, 100).page).toBe(5);
    expect(pageInfo(0, 10, 35).pageCount).toBe(4);
  });

  it('disables back on the first page and next on the last', () => {
    expect(pageInfo(0, 10, 35)).toMatchObject({ canGoBack: false, canGoNext: true });
    expect(pageInfo(10, 10, 35)).toMatchObject({ canGoBack: true, canGoNext: true });
    expect(pageInfo(30, 10, 35)).toMatchObject({ canGoBack: true, canGoNext: false });
    expect(pageInfo(0, 10, 5)).toMatchObject({ canGoBack: false, canGoNext: false, pageCount: 1 });
  });

  it('copes with odd inputs', () => {
    expect(pageInfo(-10, 10, 35).page).toBe(0);
    expect(pageInfo(0, 0, 3)).toMatchObject({ pageCount: 3, visible: true });
    expect(pageInfo(0, 10, -1)).toMatchObject({ pageCount: 1, visible: false });
  });
});

describe('offsetOfPage', () => {
  it('is the inverse of the page number', () => {
    expect(offsetOfPage(0, 10)).toBe(0);
    expect(offsetOfPage(3, 10)).toBe(30);
    expect(offsetOfPage(-1, 10)).toBe(0);
    for (const page of [0, 1, 7]) expect(pageInfo(offsetOfPage(page, 10), 10, 1000).page).toBe(page);
  });

  it('uses pages of 10 customers', () => {
    expect(CUSTOMERS_PAGE_LENGTH).toBe(10);
  });
});

describe('countCap', () => {
  it('counts up to 1,000 while the page lies within them', () => {
    expect(COUNT_CAP_STEP).toBe(1000);
    expect(countCap(0, 10)).toBe(1000);
    expect(countCap(990, 10)).toBe(1000);
  });

  it('counts further, in steps of 1,000, for pages beyond', () => {
    expect(countCap(1000, 10)).toBe(2000);
    expect(countCap(1995, 10)).toBe(3000);
    expect(countCap(-5, 0)).toBe(1000);
  });

  it('counts a text search up to 100, then in steps of 100', () => {
    expect(SEARCH_COUNT_CAP_STEP).toBe(100);
    expect(countCap(0, 10, SEARCH_COUNT_CAP_STEP)).toBe(100);
    expect(countCap(90, 10, SEARCH_COUNT_CAP_STEP)).toBe(100);
    expect(countCap(100, 10, SEARCH_COUNT_CAP_STEP)).toBe(200);
    expect(countCap(995, 10, SEARCH_COUNT_CAP_STEP)).toBe(1100);
  });
});

describe('pageInfo with a capped total', () => {
  it('keeps next open on the last counted page', () => {
    expect(pageInfo(990, 10, 1000, true)).toMatchObject({ page: 99, pageCount: 100, canGoNext: true });
    expect(pageInfo(990, 10, 1000, false)).toMatchObject({ canGoNext: false });
  });

  it('is shown even when the counted entries fit on one page', () => {
    expect(pageInfo(0, 1000, 1000, true)).toMatchObject({ visible: true, canGoNext: true });
  });
});
