import { describe, expect, it } from 'vitest';
import { eachInTurn, songCount } from './bulk';

describe('eachInTurn', () => {
  it('runs every item, never more than `concurrency` at once, and keeps their order', async () => {
    let running = 0;
    let most = 0;
    const outcome = await eachInTurn(
      [1, 2, 3, 4, 5, 6, 7],
      async (n) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, (8 - n) * 2));
        running -= 1;
        return n * 10;
      },
      3,
    );
    expect(most).toBe(3);
    expect(outcome.done.map((d) => d.result)).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(outcome.failed).toEqual([]);
  });

  it('keeps going past a failure and says which items failed and why', async () => {
    const outcome = await eachInTurn(['a', 'b', 'c'], async (s) => {
      if (s === 'b') throw new Error('refused');
      return s.toUpperCase();
    });
    expect(outcome.done.map((d) => d.item)).toEqual(['a', 'c']);
    expect(outcome.failed).toHaveLength(1);
    expect(outcome.failed[0]!.item).toBe('b');
    expect((outcome.failed[0]!.error as Error).message).toBe('refused');
  });

  it('settles at once for no items', async () => {
    expect(await eachInTurn([], async () => 1)).toEqual({ done: [], failed: [] });
  });

  it('counts songs in words', () => {
    expect(songCount(1)).toBe('1 song');
    expect(songCount(3)).toBe('3 songs');
  });
});
