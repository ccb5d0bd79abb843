import type { Logger } from '@music/api-router';
import type { Db } from '@music/db';
import { createTestDatabase, type TestDatabase } from '@music/db/testing';
import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { budgetHeaders, overBudget } from '../http/budget-edge';
import { type BudgetKey, type BudgetState, type Budgets, createBudgets } from './budgets';

const database: TestDatabase = await createTestDatabase();
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops) await stop();
  await database.close();
});

const warnings: string[] = [];
const log: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: () => {} };

function instance(overrides: Partial<Parameters<typeof createBudgets>[0]> = {}): Budgets {
  const budgets = createBudgets({ db: database.db, log, perUser: 100, perAnonymous: 10, ...overrides });
  stops.push(() => budgets.stop());
  return budgets;
}

const take = async (budgets: Budgets, key: BudgetKey): Promise<BudgetState> => {
  const state = await budgets.take(key);
  if (!state) throw new Error('the budget is off');
  return state;
};

let n = 0;
const user = () => ({ userId: `user-${process.pid}-${Date.now()}-${n++}`, address: '192.0.2.1' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Budgets are per minute of the clock: each test runs within one (the database is on this machine).
beforeEach(async () => {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 100);
}, 20_000);

describe(`request budgets over instances (${database.kind})`, () => {
  it('counts a caller down to 0, then refuses until the window ends', async () => {
    const budgets = instance({ perUser: 5 });
    const key = user();
    const states = [];
    for (let i = 0; i < 7; i++) states.push(await take(budgets, key));
    expect(states.map((s) => s.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(states.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    for (const state of states) {
      expect(state.limit).toBe(5);
      expect(state.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(state.resetSeconds).toBeLessThanOrEqual(60);
    }
    // Another caller, and the same address anonymously, have budgets of their own.
    expect((await take(budgets, user())).allowed).toBe(true);
    expect(await take(budgets, { address: key.address })).toMatchObject({ limit: 10, remaining: 9 });
  });

  it('holds one budget within a few percent when a burst is spread over two instances', async () => {
    const a = instance({ perUser: 200 });
    const b = instance({ perUser: 200 });
    const key = user();
    const states = await Promise.all(
      Array.from({ length: 600 }, (_, i) => (i % 2 === 0 ? a : b).take(key) as Promise<BudgetState>),
    );
    const admitted = states.filter((s) => s?.allowed).length;
    expect(admitted).toBeGreaterThanOrEqual(196);
    expect(admitted).toBeLessThanOrEqual(206);
  });

  it('stops a caller that spent its budget on one instance on the other within a sync', async () => {
    const a = instance({ perUser: 100 });
    const b = instance({ perUser: 100 });
    const key = user();
    // Paced like a client within its budget: decided in memory, reported by the sync.
    for (let i = 0; i < 100; i++) expect((await take(a, key)).allowed).toBe(true);
    expect((await take(a, key)).allowed).toBe(false);
    await sleep(1_200);
    expect(await take(b, key)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('reports what it counted when stopped', async () => {
    const budgets = createBudgets({
      db: database.db,
      log,
      perUser: 1000,
      perAnonymous: 10,
      syncIntervalMs: 60_000,
    });
    const key = user();
    for (let i = 0; i < 3; i++) await take(budgets, key);
    await budgets.stop();
    const rows = await database.db
      .selectFrom('request_budgets')
      .select('count')
      .where('caller', '=', key.userId)
      .execute();
    expect(rows).toEqual([{ count: 3 }]);
  });

  it('is off at 0, per kind of caller', async () => {
    const budgets = instance({ perUser: 0, perAnonymous: 3 });
    expect(budgets.take(user())).toBeNull();
    expect(await take(budgets, { address: '192.0.2.9' })).toMatchObject({ limit: 3, remaining: 2 });
    const anonymousOff = instance({ perUser: 3, perAnonymous: 0 });
    expect(anonymousOff.take({ address: '192.0.2.9' })).toBeNull();
  });

  it('keeps answering on what it knows while the database is down, and never fails a request', async () => {
    // Every statement fails the way it does when the server cannot be reached.
    const refused = () =>
      Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const down = new Kysely<unknown>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => ({
          init: async () => {},
          acquireConnection: refused,
          beginTransaction: refused,
          commitTransaction: refused,
          rollbackTransaction: refused,
          releaseConnection: async () => {},
          destroy: async () => {},
        }),
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    }) as unknown as Db;
    const budgets = createBudgets({ db: down, log, perUser: 4, perAnonymous: 10, syncIntervalMs: 50 });
    const key = user();
    const states = [];
    for (let i = 0; i < 6; i++) states.push(await take(budgets, key));
    expect(states.map((s) => s.allowed)).toEqual([true, true, true, true, false, false]);
    await sleep(200);
    expect(warnings.some((w) => w.includes('could not be reported'))).toBe(true);
    await budgets.stop();
  });

  it('says the budget in the RateLimit headers, and over it a 429 with Retry-After', () => {
    const state = { limit: 120, remaining: 0, resetSeconds: 17, allowed: false };
    expect(budgetHeaders(state)).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '17',
      'RateLimit-Policy': '120;w=60',
    });
    const error = overBudget(state);
    expect(error).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429, retryAfter: 17 });
  });
});
