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
export function mayReload(now = Date.now()): boolean {
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

/**
 * What a page does when the texts it needs before its first render cannot be fetched (a new release,
 * the network): one reload, else it says so in both languages, as the texts needed to say it in one
 * are what is missing.
 */
export function startFailed(root: HTMLElement, error: unknown): void {
  if (reloadOnce()) return;
  console.error(error);
  const message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.style.cssText = 'margin: 32px 16px; font-family: system-ui, sans-serif';
  message.textContent =
    'The portal could not be loaded: check the connection and reload the page. / ' +
    'Le portail n’a pas pu être chargé : vérifiez la connexion et rechargez la page.';
  root.replaceChildren(message);
}
