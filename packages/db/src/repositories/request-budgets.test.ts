import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { addToBudgets } from './request-budgets';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

const minute = (n: number) => new Date(Date.UTC(2026, 10, 24, 10, n));

describe(`request budgets (${database.kind})`, () => {
  it('adds deltas per caller and window and answers the totals and the database clock', async () => {
    const a = `a-${uuidv7()}`;
    const b = `b-${uuidv7()}`;
    const first = await addToBudgets(database.db, [
      { caller: a, windowStart: minute(1), delta: 3 },
      { caller: b, windowStart: minute(1), delta: 1 },
      { caller: a, windowStart: minute(2), delta: 5 },
    ]);
    const byKey = (totals: typeof first.totals) =>
      Object.fromEntries(
        totals.map((t) => [`${t.caller.slice(0, 1)}@${t.windowStart.getUTCMinutes()}`, t.count]),
      );
    expect(byKey(first.totals)).toEqual({ 'a@1': 3, 'b@1': 1, 'a@2': 5 });
    const { rows } = await sql<{ now: Date }>`select now() as now`.execute(database.db);
    expect(Math.abs(first.databaseNow!.getTime() - new Date(rows[0]!.now).getTime())).toBeLessThan(5_000);

    const second = await addToBudgets(database.db, [{ caller: a, windowStart: minute(1), delta: 2 }]);
    expect(second.totals).toEqual([{ caller: a, windowStart: minute(1), count: 5 }]);
    expect(await addToBudgets(database.db, [])).toEqual({ totals: [], databaseNow: undefined });
  });

  it('loses no count when many instances add to the same windows at once', async () => {
    const callers = Array.from({ length: 5 }, (_, i) => `busy-${i}-${uuidv7()}`);
    // Each "instance" sends its batch in its own order; the statement locks rows in one order.
    const batches = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? [...callers].reverse() : callers).map((caller) => ({
        caller,
        windowStart: minute(7),
        delta: 1,
      })),
    );
    await Promise.all(batches.map((batch) => addToBudgets(database.db, batch)));
    const last = await addToBudgets(
      database.db,
      callers.map((caller) => ({ caller, windowStart: minute(7), delta: 0 })),
    );
    expect(last.totals.map((t) => t.count)).toEqual([12, 12, 12, 12, 12]);
  });
});
