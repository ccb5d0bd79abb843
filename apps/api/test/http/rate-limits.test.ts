import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type Response, startTestApi } from '../support/harness';

const PER_USER = 5;
const PER_ADDRESS = 10;
const api = await startTestApi({
  RATE_LIMIT_PER_MINUTE: PER_USER,
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: PER_ADDRESS,
});
const sibling = await api.startSibling();
afterAll(() => api.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Budgets are per minute of the clock: each test runs within one (the database is on this machine).
beforeEach(async () => {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 100);
}, 20_000);

let addresses = 0;
/** A client address of its own (the test talks through a trusted loopback "proxy"). */
const address = () => ({ 'x-forwarded-for': `198.51.100.${++addresses}` });

function budgetOf(res: Response) {
  return {
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    policy: res.headers.get('ratelimit-policy'),
  };
}

function expectOverBudget(res: Response<{ code?: string }>) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe('TOO_MANY_REQUESTS');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
}

describe('request budgets (version 1.1)', () => {
  it('counts a user down in the RateLimit headers, then answers 429 with Retry-After', async () => {
    const user = await api.signUp();
    const answers = [];
    for (let i = 0; i < PER_USER; i++)
      answers.push(await api.request('GET', '/auth/me', { token: user.token }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => budgetOf(a))).toEqual(
      [4, 3, 2, 1, 0].map((left) => ({ limit: '5', remaining: String(left), policy: '5;w=60' })),
    );
    const reset = Number(answers[0]!.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    expectOverBudget(await api.request('GET', '/auth/me', { token: user.token }));
    // Before the body is read: an invalid body gets the 429 too.
    expectOverBudget(await api.request('POST', '/playlists', { token: user.token, rawBody: '{' }));
    // And on the other instance, within a sync.
    await sleep(1_200);
    expectOverBudget(await sibling.request('GET', '/auth/me', { token: user.token }));
  });

  it('gives each anonymous client address a budget of its own', async () => {
    const from = address();
    // Another email each time: the sign-in throttle (per email) stays out of the way.
    const login = () => ({ email: `nobody-${Math.random()}@example.com`, password: 'wrong-password' });
    for (let i = 0; i < PER_ADDRESS; i++) {
      const res = await api.request('POST', '/auth/login', { body: login(), headers: from });
      expect(res.status).toBe(401);
      expect(budgetOf(res).remaining).toBe(String(PER_ADDRESS - 1 - i));
    }
    expectOverBudget(await api.request('POST', '/auth/login', { body: login(), headers: from }));
    expectOverBudget(await api.request('POST', '/users', { body: {}, headers: from }));
    const elsewhere = await api.request('POST', '/auth/login', { body: login(), headers: address() });
    expect(elsewhere.status).toBe(401);
    expect(budgetOf(elsewhere)).toEqual({ limit: '10', remaining: '9', policy: '10;w=60' });
  });

  it('counts a refused token against its address, answering 401 first', async () => {
    const from = address();
    const forged = { token: 'not-a-token', headers: from };
    for (let i = 0; i < PER_ADDRESS + 2; i++) {
      const res = await api.request('GET', '/auth/me', forged);
      expect(res.status).toBe(401);
      expect(res.headers.get('ratelimit-limit')).toBe(String(PER_ADDRESS));
    }
    const anonymous = await api.request('POST', '/auth/login', {
      body: { email: 'x@example.com', password: 'whatever-it-is' },
      headers: from,
    });
    expectOverBudget(anonymous);
  });

  it('does not count health, the document or the docs page; counts /trpc like /v1 (version 1.2)', async () => {
    const user = await api.signUp();
    const before = await api.request('GET', '/auth/me', { token: user.token });
    for (const path of ['/health', '/health/live', '/openapi.json', '/docs']) {
      const res = await fetch(`${api.server.url}/v1${path}`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('ratelimit-limit'), path).toBeNull();
    }
    const rpc = await fetch(`${api.server.url}/trpc/auth.me`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(rpc.status).toBe(200);
    expect(rpc.headers.get('ratelimit-limit')).toBe(String(PER_USER));
    expect(Number(rpc.headers.get('ratelimit-remaining'))).toBe(
      Number(before.headers.get('ratelimit-remaining')) - 1,
    );
    const after = await api.request('GET', '/auth/me', { token: user.token });
    expect(Number(after.headers.get('ratelimit-remaining'))).toBe(
      Number(before.headers.get('ratelimit-remaining')) - 2,
    );
  });

  it('holds a user to one budget over /v1 and /trpc, queries and mutations, with the same headers and 429', async () => {
    const user = await api.signUp();
    const auth = { authorization: `Bearer ${user.token}` };
    const answers = [
      await fetch(`${api.server.url}/trpc/auth.me`, { headers: auth }),
      await api.request('GET', '/auth/me', { token: user.token }),
      await fetch(`${api.server.url}/trpc/playlists.create`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Counted' }),
      }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2']);
    expect(answers[2]!.headers.get('ratelimit-policy')).toBe('5;w=60');
    await api.request('GET', '/auth/me', { token: user.token });
    await api.request('GET', '/auth/me', { token: user.token });
    for (const over of [
      await fetch(`${api.server.url}/trpc/auth.me`, { headers: auth }),
      await fetch(`${api.server.url}/trpc/playlists.create`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Refused' }),
      }),
    ]) {
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(over.headers.get('ratelimit-remaining')).toBe('0');
      const body = (await over.json()) as { error: { data: { code: string; httpStatus: number } } };
      expect(body.error.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
    }
  });

  it('is off at 0: no headers, no 429', async () => {
    const off = await api.startSibling({ RATE_LIMIT_PER_MINUTE: 0, RATE_LIMIT_ANONYMOUS_PER_MINUTE: 0 });
    const user = await api.signUp();
    for (let i = 0; i < PER_USER + 2; i++) {
      const res = await off.request('GET', '/auth/me', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    const anonymous = await off.request('POST', '/auth/login', {
      body: { email: 'x@example.com', password: 'whatever-it-is' },
      headers: address(),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit-limit')).toBeNull();
  });
});
