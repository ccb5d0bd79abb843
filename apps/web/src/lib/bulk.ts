/**
 * One action on many records, as the console does it: one call per record (the API has no
 * batch write), a few at a time so a hundred songs neither queue behind one another nor take
 * every connection the browser has, and each outcome kept: what went through, what failed and why.
 */

/** How many of a bulk action's calls are in flight at once. */
export const BULK_CONCURRENCY = 4;

/** The most records one bulk action takes: a page at the largest page size. */
export const BULK_MAX = 100;

export interface BulkOutcome<Item, Result> {
  done: Array<{ item: Item; result: Result }>;
  failed: Array<{ item: Item; error: unknown }>;
}

/**
 * Runs `work` on every item, at most `concurrency` at a time, and resolves once all have
 * settled (never rejects): the outcomes in the items' order, split into done and failed.
 */
export async function eachInTurn<Item, Result>(
  items: readonly Item[],
  work: (item: Item) => Promise<Result>,
  concurrency = BULK_CONCURRENCY,
): Promise<BulkOutcome<Item, Result>> {
  const settled: Array<{ ok: true; result: Result } | { ok: false; error: unknown }> = new Array(
    items.length,
  );
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      try {
        settled[index] = { ok: true, result: await work(items[index]!) };
      } catch (error) {
        settled[index] = { ok: false, error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  const outcome: BulkOutcome<Item, Result> = { done: [], failed: [] };
  settled.forEach((entry, index) => {
    const item = items[index]!;
    if (entry.ok) outcome.done.push({ item, result: entry.result });
    else outcome.failed.push({ item, error: entry.error });
  });
  return outcome;
}

/** "1 song", "3 songs". */
export function songCount(count: number): string {
  return `${count} ${count === 1 ? 'song' : 'songs'}`;
}
