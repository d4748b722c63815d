/**
 * The longest stretch of background work between two turns of the event loop. better-sqlite3 runs
 * each statement on the event loop and Kysely hands its result over as a resolved promise, so on
 * SQLite a backlog of jobs goes from one promise to the next without ever letting a request in: a
 * portal on a 100k-customer database, busy with the daily run's 52,000 jobs, did not answer its
 * health check for minutes (decision 089).
 */
export const SLICE_MS = 10;

/**
 * A gate that background work passes before each fetch and each attempt: once the current slice of
 * the event loop's time is spent, it waits for the next turn (setImmediate: after the turn's
 * sockets and timers), so requests go between the jobs. On PostgreSQL every statement waits on its
 * socket and the loop turns anyway; the gate then costs a setImmediate per attempt.
 */
export function createPace(sliceMs = SLICE_MS): () => Promise<void> {
  let sliceStart = performance.now();
  let resetQueued = false;
  const reset = () => {
    resetQueued = false;
    sliceStart = performance.now();
  };
  return async function pace() {
    // Every caller takes a turn of its own: callers that arrive together (a fetch's attempts) would
    // otherwise all pass before the first has done any work. Node runs the promises a callback
    // resolves before the next callback, so the first caller's work is done when the second looks.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (performance.now() - sliceStart >= sliceMs) {
      // Queued before the caller's next turn, so the slice starts again when it resumes; a
      // setImmediate queued while the loop runs these callbacks waits for its next turn, after the
      // turn's sockets and timers.
      if (!resetQueued) {
        resetQueued = true;
        setImmediate(reset);
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
}
