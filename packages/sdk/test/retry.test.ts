import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../../apps/api/test/support/harness';
import type { MusicClient, RetryEvent } from '../src/index';
import { backoffMs, retryAfterMs } from '../src/retry';
import { sessionOf, startApi, tagOf } from './support';

/** A small budget per signed-in caller, so spending one takes a few requests. */
const BUDGET = 5;
let api: TestApi;
beforeAll(async () => {
  api = await startApi({ RATE_LIMIT_PER_MINUTE: BUDGET });
});
afterAll(() => api?.close());

/** Sends requests (no retries: `retry: false`) until the caller's budget answers 429. */
async function spend(client: MusicClient): Promise<number> {
  for (let sent = 1; sent <= BUDGET + 2; sent++) {
    const { response } = await client.GET('/auth/me');
    if (response.status === 429) return Number(response.headers.get('Retry-After'));
  }
  throw new Error(`no 429 within ${BUDGET + 2} requests`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Retry-After backoff', () => {
  it('waits what Retry-After asks on a 429, then sends the creation again with the same Idempotency-Key', async () => {
    const admin = await api.signUp('admin');
    const events: RetryEvent[] = [];
    const { client: spender } = sessionOf(api, admin, { retry: false });
    const { client, sent } = sessionOf(api, admin, {
      retry: { attempts: 3, onRetry: (e) => events.push(e) },
    });
    // Budgets are fixed one-minute windows: spend this one near its end, so the wait is short.
    const probe = await spender.GET('/auth/me');
    const reset = Number(probe.response.headers.get('RateLimit-Reset'));
    if (reset > 5) await sleep((reset - 4) * 1000);
    const retryAfter = await spend(spender);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(6);

    const title = `${tagOf()} after the wait`;
    const started = Date.now();
    const created = await client.POST('/songs', { body: { title, duration: 99 } });
    expect(created.response.status).toBe(201);
    expect(sent.map((r) => r.status)).toEqual([429, 201]);
    const [refused, accepted] = sent.map((r) => r.headers.get('Idempotency-Key'));
    expect(refused).toBeTruthy();
    expect(accepted).toBe(refused);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ method: 'POST', status: 429, attempt: 1 });
    // The wait is what the 429 asked, plus at most its jitter.
    const asked = Number(sent[0]?.answered.get('Retry-After')) * 1000;
    expect(events[0]?.delayMs).toBeGreaterThanOrEqual(asked);
    expect(events[0]?.delayMs).toBeLessThanOrEqual(asked + 2000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(events[0]?.delayMs ?? Number.NaN);
  }, 90_000);

  it('answers the 429 at once when the wait is longer than the client accepts', async () => {
    const user = await api.signUp();
    const { client: spender } = sessionOf(api, user, { retry: false });
    const { client, sent } = sessionOf(api, user, { retry: { maxWaitSeconds: 0 } });
    await spend(spender);
    const { error, response } = await client.GET('/auth/me');
    expect(response.status).toBe(429);
    expect(error?.code).toBe('TOO_MANY_REQUESTS');
    expect(sent).toHaveLength(1);
  });

  it('does not send again a request that may not be repeated (a POST without Idempotency-Key)', async () => {
    const user = await api.signUp();
    const { client: spender } = sessionOf(api, user, { retry: false });
    const { client, sent } = sessionOf(api, user);
    await spend(spender);
    const { response } = await client.POST('/auth/logout');
    expect(response.status).toBe(429);
    expect(sent).toHaveLength(1);
  });
});

describe('the backoff', () => {
  it('reads Retry-After in seconds or as a date, and never waits less than it asks', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(backoffMs(3000, 1, () => 0)).toBe(3000);
    expect(backoffMs(3000, 1, () => 1)).toBe(3750);
    expect(backoffMs(60_000, 1, () => 1)).toBe(62_000);
    // Without the header: exponential, fully jittered.
    expect(backoffMs(undefined, 3, () => 1)).toBe(2000);
    expect(backoffMs(undefined, 3, () => 0)).toBe(0);
  });
});
