// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { expectConsoleError } from '../test/console';
import { failedFileOf, isChunkLoadError, RELOAD_GUARD_MS, reloader, reloadOnce, startFailed } from './reload';
import { withDeadline } from './code-deadline';

describe('a page whose code cannot be fetched', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.sessionStorage.clear();
  });

  it('is told apart from a failed API call, which never reloads the page', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/A-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /assets/A-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/A-1.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError(new ApiError(0, 'network', 'Failed to fetch dynamically imported module'))).toBe(false);
  });

  it('does not reload while the browser is offline: the error page stays instead of the browser offline page', () => {
    const reload = vi.spyOn(reloader, 'reload').mockImplementation(() => {});
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(reloadOnce(Date.now())).toBe(false);
    expect(reload).not.toHaveBeenCalled();

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const now = Date.now() + RELOAD_GUARD_MS * 2;
    expect(reloadOnce(now)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('names the file that failed, when the browser says it', () => {
    expect(
      failedFileOf(new TypeError('Failed to fetch dynamically imported module: http://x.test/assets/A-1.js')),
    ).toBe('http://x.test/assets/A-1.js');
    expect(failedFileOf(new Error('Unable to preload CSS for /assets/A-1.css'))).toBe('/assets/A-1.css');
    expect(failedFileOf(new TypeError('Importing a module script failed.'))).toBeNull();
  });
});

describe('a page whose texts cannot be fetched before its first render', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.history.replaceState(null, '', '/');
  });

  it('says so in the language of the address, with a reload button, after its one reload', () => {
    window.sessionStorage.setItem('chunk-reload-at', String(Date.now()));
    const reload = vi.spyOn(reloader, 'reload').mockImplementation(() => {});
    // the failure is logged for whoever opens the console
    expectConsoleError('TypeError: Failed to fetch dynamically imported module: /assets/fr-1.js');
    window.history.replaceState(null, '', '/fr/customers');
    const root = document.createElement('div');
    startFailed(root, new TypeError('Failed to fetch dynamically imported module: /assets/fr-1.js'));
    expect(root.querySelector('[role="alert"]')?.textContent).toMatch(/^Le portail n’a pas pu être chargé/);
    const button = root.querySelector('button');
    expect(button?.textContent).toBe('Recharger la page');
    button?.click();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('a page whose code never arrives', () => {
  afterEach(() => vi.useRealTimers());

  it('gives up after the deadline with an error handled as a failed fetch', async () => {
    vi.useFakeTimers();
    const outcome = withDeadline(new Promise<never>(() => {}), 1000).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(999);
    const settled = await Promise.race([outcome, Promise.resolve('pending')]);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(isChunkLoadError(error)).toBe(true);
  });

  it("passes the code, or the fetch's own error, through when they come in time", async () => {
    await expect(withDeadline(Promise.resolve('code'), 1000)).resolves.toBe('code');
    const failed = new TypeError('Failed to fetch dynamically imported module: /assets/X-1.js');
    await expect(withDeadline(Promise.reject(failed), 1000)).rejects.toBe(failed);
  });
});
