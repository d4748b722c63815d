/** A page's code that does not come (decision 048): a light module, the sign-in pages use it too. */

/** How long a page's code may take to arrive before the page gives up on it (a request that hangs). */
const CODE_DEADLINE_MS = 30_000;

/** The code of a page that has not arrived within CODE_DEADLINE_MS: handled as a failed fetch. */
class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/**
 * A page's code, or a ChunkLoadError once `ms` have passed without it: a request the network holds
 * open for ever must not leave the loader spinning (the boot loader gives up the same way).
 */
export function withDeadline<T>(load: Promise<T>, ms = CODE_DEADLINE_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`the page's code did not arrive within ${ms} ms`)), ms);
    load.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
