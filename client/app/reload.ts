import { BOOT_FAILURE_TEXTS } from '../../common/boot-loader';
import { ApiError } from '../api/client';

/**
 * A page's code is fetched when the page is first opened. After a new release the old file names
 * are gone (404), and a server restart or a lost connection fails the fetch too. Reloading once picks
 * up the new release; a second failure soon after is shown as an error page rather than reloading
 * in a loop (decision 020).
 */
const RELOAD_KEY = 'chunk-reload-at';
/** A failure this soon after the last automatic reload is not reloaded again. */
export const RELOAD_GUARD_MS = 60_000;

// The words each browser uses when a dynamically imported module or its stylesheet cannot be
// fetched (Chromium, Firefox, Safari, Vite's preload). Not "Failed to fetch" alone: that is what a
// failed API call says, and a network blip on a call must not reload the page.
const CHUNK_ERROR =
  /failed to fetch dynamically imported module|error loading dynamically imported module|importing a module script failed|unable to preload css/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof ApiError) return false;
  return error.name === 'ChunkLoadError' || CHUNK_ERROR.test(error.message);
}

function lastReload(): number {
  try {
    return Number(window.sessionStorage.getItem(RELOAD_KEY) ?? 0);
  } catch {
    return Date.now(); // storage unavailable: no way to tell a loop apart, so no automatic reload
  }
}

/** Whether an automatic reload may happen now (none in this tab within the guard time). */
function mayReload(now = Date.now()): boolean {
  return now - lastReload() > RELOAD_GUARD_MS;
}

/** How the page is reloaded; tests replace it with a spy. */
export const reloader = { reload: () => window.location.reload() };

/** Reloads the page unless one was done moments ago; says whether it did. */
export function reloadOnce(now = Date.now()): boolean {
  // Offline, a reload would only swap the app for the browser's own offline page.
  if (!mayReload(now) || !navigator.onLine) return false;
  try {
    window.sessionStorage.setItem(RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  reloader.reload();
  return true;
}

/** How long the server is given to answer whether a page's file is still there. */
const PROBE_TIMEOUT_MS = 5_000;

/** The file a failed import names (Chromium, Firefox, Vite's preload do; Safari names none). */
export function failedFileOf(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  return /https?:\/\/[^\s'"]+|\/assets\/[^\s'"]+/.exec(error.message)?.[0] ?? null;
}

/** What the server says of an address: there, gone (404, 410), or nothing at all (no network, no server). */
async function probe(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<'present' | 'gone' | 'unreachable'> {
  try {
    const answer = await fetch(url, { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
    if (answer.status === 404 || answer.status === 410) return 'gone';
    return answer.ok ? 'present' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

/**
 * After a page's code failed to arrive: reloads once when a new release removed the file, and says
 * whether it did. A reload helps nothing when the file is still there, and when the server does not
 * answer it swaps the portal for the browser's own error page: then the caller shows its message,
 * with a reload button, in the portal. Without the file's name, a server that answers is taken as a
 * new release.
 */
export async function reloadIfReleased(error: unknown): Promise<boolean> {
  if (!mayReload() || !navigator.onLine) return false;
  const file = failedFileOf(error);
  const answer = await probe(file ?? window.location.href);
  if (answer !== (file ? 'gone' : 'present')) return false;
  return reloadOnce();
}

/**
 * What a page does when the texts it needs before its first render cannot be fetched (a new release,
 * the network): one reload, else what the HTML page's loader says when the code does not come
 * (common/boot-loader.ts), in the address's language, as the texts to say it are what is missing.
 */
export function startFailed(root: HTMLElement, error: unknown): void {
  if (reloadOnce()) return;
  console.error(error);
  const text = /^\/fr(\/|$)/.test(window.location.pathname) ? BOOT_FAILURE_TEXTS.fr : BOOT_FAILURE_TEXTS.en;
  const failed = document.createElement('div');
  failed.dataset.testid = 'boot-failed';
  failed.style.cssText = 'margin: 32px 16px; font-family: system-ui, sans-serif; text-align: center';
  const message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.textContent = text.message;
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = text.reload;
  button.addEventListener('click', () => reloader.reload());
  failed.append(message, button);
  root.replaceChildren(failed);
}
