import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { startHaproxy } from '../haproxy';
import { apiInstance } from '../instances';
import { sleep } from '../processes';
import { ADMIN, CHECK_INTERVAL_MS, type Fleet } from './fleet';
import { type Answer, requests } from './requests';

const BUDGET = 200;

/** Waits, if need be, for a minute of the clock with at least `seconds` left (budgets are per minute). */
async function freshWindow(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await sleep(left + 200);
}

/**
 * Two more instances of the release, with a small budget per user, behind a balancer of their
 * own (the fleet's instances keep a budget its load scenarios never reach). A user spends its
 * budget through the balancer, 20 requests at a time: the instances together admit it within a
 * few percent, and both refuse the user from then on, each answer carrying the RateLimit
 * headers and each 429 a Retry-After.
 */
export async function holdsBudgetAcrossInstances(fleet: Fleet): Promise<void> {
  const env = { ...fleet.apiEnv(), RATE_LIMIT_PER_MINUTE: String(BUDGET) };
  const apis = await Promise.all(['budget1', 'budget2'].map((name) => apiInstance(name, env)));
  try {
    await Promise.all(apis.map((api) => api.start()));
    const balancer = await startHaproxy([
      {
        name: 'budget',
        servers: apis.map((a) => a.port),
        check: 'GET /v1/health',
        checkIntervalMs: CHECK_INTERVAL_MS,
      },
    ]);
    try {
      const through = requests(balancer.url('budget'));
      await sleep(CHECK_INTERVAL_MS * 3);
      const user = await through.signUp('budget');
      await freshWindow(15);

      const answers: Answer[] = [];
      for (let round = 0; round < (BUDGET * 2) / 20; round++) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 20 }, () => through.call('GET', '/auth/me', { token: user.token })),
          )),
        );
      }
      const admitted = answers.filter((a) => a.status === 200).length;
      const refused = answers.filter((a) => a.status === 429);
      expect(admitted + refused.length).toBe(answers.length);
      expect(admitted).toBeGreaterThanOrEqual(BUDGET * 0.97);
      expect(admitted).toBeLessThanOrEqual(BUDGET * 1.03);
      for (const answer of answers) {
        expect(answer.headers.get('ratelimit-limit')).toBe(String(BUDGET));
        expect(answer.headers.get('ratelimit-policy')).toBe(`${BUDGET};w=60`);
      }
      for (const answer of refused) {
        expect(answer.body.code).toBe('TOO_MANY_REQUESTS');
        const retryAfter = Number(answer.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
      // Stopped on every instance within 2 s.
      await sleep(2_000);
      for (const api of apis) {
        const res = await through.call('GET', '/auth/me', { token: user.token, base: api.url });
        expect(res.status, api.name).toBe(429);
      }
      // Another user is not affected.
      const other = await through.signUp('budget-other');
      expect((await through.call('GET', '/auth/me', { token: other.token })).status).toBe(200);
    } finally {
      await balancer.stop();
    }
  } finally {
    await Promise.all(apis.map((api) => api.stop('SIGINT')));
  }
}

/**
 * An `Idempotency-Key` repeated on other instances gets the first answer (replayed), the same
 * key with another body a 422 there, and simultaneous repeats on three instances create once.
 */
export async function replaysIdempotencyKeyAcrossInstances(fleet: Fleet): Promise<void> {
  const admin = (await fleet.call('POST', '/auth/login', { body: ADMIN })).body.accessToken as string;
  const [a, b, c] = fleet.apis;
  const key = randomUUID();
  const name = `Keyed ${key}`;
  const post = (base: string, body: unknown, keyed = key) =>
    fleet.call('POST', '/artists', { token: admin, body, base, headers: { 'idempotency-key': keyed } });

  const first = await post(a!.url, { name });
  expect(first.status).toBe(201);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  for (const api of [b!, c!]) {
    const again = await post(api.url, { name });
    expect(again.status, api.name).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
  }
  const otherBody = await post(c!.url, { name: `${name}, changed` });
  expect(otherBody.status).toBe(422);
  expect(otherBody.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);

  const raceKey = randomUUID();
  const raced = `Raced ${raceKey}`;
  const answers = await Promise.all(fleet.apis.map((api) => post(api.url, { name: raced }, raceKey)));
  const fresh = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
  expect(fresh).toHaveLength(1);
  for (const answer of answers) expect([201, 409]).toContain(answer.status);

  const { rows } = await fleet.onDatabase((db) =>
    db.query<{ name: string; n: number }>(
      'select name, count(*)::int as n from artists where name = any($1) group by name order by name',
      [[name, raced]],
    ),
  );
  expect(rows).toEqual([
    { name, n: 1 },
    { name: raced, n: 1 },
  ]);
}
