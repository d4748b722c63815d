import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that goes on after its request has been answered, so that the answer's timing does not tell
 * what the work found (password-reset requests, see modules/auth/service.ts). Shutdown waits for it
 * before closing the database, and tests wait for it before looking at its effects.
 */
export interface BackgroundTasks {
  run(name: string, work: () => Promise<void>): void;
  /** resolves once no task is left, including tasks started meanwhile */
  idle(): Promise<void>;
}

export function createBackgroundTasks(log: FastifyBaseLogger): BackgroundTasks {
  const pending = new Set<Promise<void>>();
  return {
    run(name, work) {
      const task: Promise<void> = Promise.resolve()
        .then(work)
        .catch((error: unknown) => log.error({ err: error }, `background task failed: ${name}`))
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
