/**
 * Gathers the calls made while a statement is under way into the next one (decision 075): at most one
 * call of `run` is in flight; the keys asked for meanwhile wait and go together into the following
 * call. A lone call goes at once (no added delay when the work is light); under load each statement
 * carries many keys, so a backlog of 10,000 mails costs a few hundred statements instead of 30,000.
 *
 * `run` answers a value per key (a Map), or nothing for writes; each caller gets its key's value, or
 * the error of the call that carried it.
 */
export function coalesce<K, V = void>(
  run: (keys: K[]) => Promise<Map<K, V> | void>,
  options: { maxBatch?: number } = {},
): (key: K) => Promise<V | undefined> {
  const maxBatch = options.maxBatch ?? 500;
  let waiting: { key: K; resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[] = [];
  let busy = false;

  async function drain(): Promise<void> {
    busy = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, maxBatch);
        waiting = waiting.slice(maxBatch);
        try {
          const values = await run([...new Set(batch.map((entry) => entry.key))]);
          for (const entry of batch) entry.resolve(values ? values.get(entry.key) : undefined);
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      busy = false;
    }
  }

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      if (!busy) void drain();
    });
}
