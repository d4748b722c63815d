import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';

/** A `run` that records each call's keys and ends when the test says so. */
function controlled() {
  const calls: number[][] = [];
  const ends: (() => void)[] = [];
  const run = (keys: number[]) =>
    new Promise<Map<number, string>>((resolve) => {
      calls.push(keys);
      ends.push(() => resolve(new Map(keys.map((key) => [key, `row ${key}`]))));
    });
  return { calls, ends, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesce', () => {
  it('runs a lone call at once, and gathers the calls made meanwhile into the next one', async () => {
    const { calls, ends, run } = controlled();
    const load = coalesce(run);
    const first = load(1);
    await tick();
    expect(calls).toEqual([[1]]);

    const others = [load(2), load(3), load(2), load(4)];
    await tick();
    expect(calls).toHaveLength(1); // nothing more while the first is in flight
    ends[0]!();
    expect(await first).toBe('row 1');
    await tick();
    expect(calls).toEqual([[1], [2, 3, 4]]);
    ends[1]!();
    expect(await Promise.all(others)).toEqual(['row 2', 'row 3', 'row 2', 'row 4']);
  });

  it('keeps each call under the largest batch', async () => {
    const { calls, ends, run } = controlled();
    const load = coalesce(run, { maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((key) => load(key));
    for (let i = 0; i < 3; i++) {
      await tick();
      ends[i]!();
    }
    expect(await Promise.all(all)).toEqual(['row 1', 'row 2', 'row 3', 'row 4', 'row 5']);
    expect(calls).toEqual([[1], [2, 3], [4, 5]]);
  });

  it("gives a failed call's error to its own callers only, and goes on with the next", async () => {
    let calls = 0;
    const write = coalesce<number>(async (keys) => {
      calls++;
      await tick();
      if (keys.includes(2)) throw new Error('the database went away');
    });
    const first = write(1);
    const failing = [write(2), write(3)];
    await first;
    await expect(Promise.all(failing)).rejects.toThrow('the database went away');
    await expect(write(4)).resolves.toBeUndefined();
    expect(calls).toBe(3);
  });
});
