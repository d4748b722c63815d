import { describe, expect, it, vi } from 'vitest';
import type { AppContext, Logger } from '../context';
import { createInProcessRunner } from './in-process';

declare module './types' {
  interface QueuedJobs {
    'test.echo': { value: number };
  }
}

const log = () => ({ error: vi.fn() }) as unknown as Logger & { error: ReturnType<typeof vi.fn> };
const ctx = {} as AppContext;

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('in-process job runner', () => {
  it('runs nothing before start, a scheduled job once at start, and again when triggered', async () => {
    const runner = createInProcessRunner(log());
    const run = vi.fn(async () => {});
    runner.schedule({ name: 'count', everyMs: 3_600_000, run });
    runner.trigger('count');
    await runner.idle();
    expect(run).not.toHaveBeenCalled();

    runner.start(ctx);
    await runner.idle();
    expect(run).toHaveBeenCalledTimes(1);
    // a job acts as itself (decision 059): what it changes is audited as the job's doing
    expect(run).toHaveBeenCalledWith(ctx, { kind: 'job', name: 'count' });
    runner.trigger('count');
    await runner.idle();
    expect(run).toHaveBeenCalledTimes(2);
    await runner.stop();
  });

  it('folds triggers that arrive during a run into one more pass, never two runs at once', async () => {
    const runner = createInProcessRunner(log());
    const first = gate();
    let running = 0;
    let most = 0;
    const run = vi.fn(async () => {
      most = Math.max(most, ++running);
      if (run.mock.calls.length === 1) await first.opened;
      running--;
    });
    runner.schedule({ name: 'slow', everyMs: 3_600_000, run });
    runner.start(ctx);
    runner.trigger('slow');
    runner.trigger('slow');
    first.open();
    await runner.idle();
    expect(run).toHaveBeenCalledTimes(2);
    expect(most).toBe(1);
    await runner.stop();
  });

  it('runs on its interval, logs a failure and keeps going', async () => {
    vi.useFakeTimers();
    try {
      const logger = log();
      const runner = createInProcessRunner(logger);
      const run = vi.fn().mockRejectedValueOnce(new Error('disk full')).mockResolvedValue(undefined);
      runner.schedule({ name: 'tick', everyMs: 1000, run });
      runner.start(ctx);
      await vi.advanceTimersByTimeAsync(2500);
      expect(run).toHaveBeenCalledTimes(3);
      expect(logger.error).toHaveBeenCalledTimes(1);
      expect(logger.error.mock.calls[0][1]).toBe('job failed: tick');
      await runner.stop();
      await vi.advanceTimersByTimeAsync(5000);
      expect(run).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs queued work with its payload once started, and stop() waits for work in progress', async () => {
    const runner = createInProcessRunner(log());
    const seen: number[] = [];
    const actors: unknown[] = [];
    const slow = gate();
    runner.handle('test.echo', async (_ctx, actor, payload) => {
      actors.push(actor);
      await slow.opened;
      seen.push(payload.value);
    });
    runner.enqueue('test.echo', { value: 1 });
    expect(seen).toEqual([]);
    runner.start(ctx);
    runner.enqueue('test.echo', { value: 2 });
    const stopped = runner.stop();
    slow.open();
    await stopped;
    expect(seen.sort()).toEqual([1, 2]);
    expect(actors).toEqual([
      { kind: 'job', name: 'test.echo' },
      { kind: 'job', name: 'test.echo' },
    ]);
  });

  it('refuses a job scheduled twice and a trigger of an unknown one', () => {
    const runner = createInProcessRunner(log());
    runner.schedule({ name: 'once', everyMs: 1000, run: async () => {} });
    expect(() => runner.schedule({ name: 'once', everyMs: 1000, run: async () => {} })).toThrow(/twice/);
    expect(() => runner.trigger('nope')).toThrow(/unknown job/);
  });
});
