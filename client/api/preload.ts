/**
 * GET answers asked for before the code that reads them has arrived: the page's data alongside its
 * code (decision 052). The page's query takes the answer once, if it is young enough, else asks again.
 */
/** `GET /api/customers/{id}/page`'s path (here, so the app's first script does not carry its schema). */
export const customerPagePath = (customerId: number) => `/customers/${customerId}/page`;

const MAX_AGE_MS = 10_000;
const pending = new Map<string, { at: number; response: Promise<Response>; taken: boolean }>();

/** Starts `GET /api{path}` now, unless the same was started (and maybe taken) a moment ago. */
export function preloadGet(path: string): void {
  const now = Date.now();
  const current = pending.get(path);
  if (current && now - current.at < MAX_AGE_MS) return;
  const response = fetch(`/api${path}`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  // an answer nobody takes is not an unhandled rejection
  response.catch(() => {});
  pending.set(path, { at: now, response, taken: false });
}

/** The preloaded answer of `GET /api{path}`, once: undefined when none was started, or it is taken or old. */
export function takePreloaded(path: string): Promise<Response> | undefined {
  const entry = pending.get(path);
  if (!entry || entry.taken || Date.now() - entry.at >= MAX_AGE_MS) return undefined;
  entry.taken = true;
  return entry.response;
}
