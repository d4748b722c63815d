import { afterEach, describe, expect, it, vi } from 'vitest';
import { customerPagePath, preloadGet, takePreloaded } from './preload';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function stubFetch() {
  const fetch = vi.fn((url: string) => Promise.resolve(new Response(JSON.stringify({ url }))));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('preloaded answers', () => {
  it('asks once for a path however often it is preloaded, and gives the answer once', async () => {
    const fetch = stubFetch();
    const path = customerPagePath(7);
    preloadGet(path);
    preloadGet(path);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toBe('/api/customers/7/page');
    const answer = takePreloaded(path);
    expect(await (await answer!).json()).toEqual({ url: '/api/customers/7/page' });
    // taken: the page asks again itself, and a preload a moment later does not ask twice
    expect(takePreloaded(path)).toBeUndefined();
    preloadGet(path);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('gives nothing for a path nobody preloaded, nor an answer older than 10 s', () => {
    vi.useFakeTimers();
    const fetch = stubFetch();
    expect(takePreloaded(customerPagePath(8))).toBeUndefined();
    preloadGet(customerPagePath(9));
    vi.advanceTimersByTime(10_001);
    expect(takePreloaded(customerPagePath(9))).toBeUndefined();
    // an old one is asked for again
    preloadGet(customerPagePath(9));
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
