import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../server';
import {
  type Client,
  type Response,
  type SignedIn,
  startTestApi,
  TEST_SECRET,
  type TestApi,
  uniqueEmail,
} from '../testing/harness';
import {
  codeOf,
  errorShapeOk,
  fingerprint,
  missingId,
  type Transport,
  type TrpcClient,
  trpcOf,
} from './support';

/**
 * Token and session attacks on both transports. What src/auth.test.ts already proves on /v1
 * (rotation, reuse, one concurrent refresh winning, logout on a sibling, demotion, the 401 body
 * for HS512 / wrong key / wrong iss, aud / expired / alg none, email throttling across
 * instances, refused batches) is not repeated here; this file adds the rest of RFC 8725's list,
 * every case on /trpc as well, and the session events auth.test.ts leaves out.
 */

let api: TestApi;
let trpc: TrpcClient;
let sibling: Client & { close(): Promise<void> };
let siblingTrpc: TrpcClient;

beforeAll(async () => {
  api = await startTestApi({ LOGIN_MAX_FAILURES_PER_EMAIL: 6, LOGIN_MAX_FAILURES_PER_ADDRESS: 6 });
  trpc = trpcOf(api);
  sibling = await api.startSibling();
  siblingTrpc = trpcOf(sibling);
});
afterAll(() => api?.close());

const TRANSPORTS: Transport[] = ['v1', 'trpc'];

/** Each login attempt comes from its own address unless a test says otherwise (address throttling). */
let addressCounter = 0;
function uniqueAddress(): string {
  addressCounter++;
  return `2001:db8::${addressCounter.toString(16)}`;
}

function client(transport: Transport, which: 'main' | 'sibling' = 'main') {
  return which === 'main'
    ? { v1: api as Client, trpc }[transport]
    : { v1: sibling, trpc: siblingTrpc }[transport];
}

/** `GET /v1/auth/me` or `auth.me` with a raw Authorization header value (or a bearer token). */
function me(transport: Transport, token: string | undefined, which: 'main' | 'sibling' = 'main') {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  if (transport === 'v1') return client('v1', which).request('GET', '/auth/me', { headers });
  return client('trpc', which).request('GET', '/auth.me', { headers });
}

/** A protected mutation: creates a playlist. */
function createPlaylist(transport: Transport, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const body = { name: 'forged' };
  if (transport === 'v1') return api.request('POST', '/playlists', { headers, body });
  return trpc.request('POST', '/playlists.create', { headers, body });
}

function refresh(transport: Transport, refreshToken: string, which: 'main' | 'sibling' = 'main') {
  if (transport === 'v1')
    return client('v1', which).request('POST', '/auth/refresh', { body: { refreshToken } });
  return (client('trpc', which) as TrpcClient).call('auth.refresh', { refreshToken });
}

function login(
  transport: Transport,
  body: unknown,
  address = uniqueAddress(),
  which: 'main' | 'sibling' = 'main',
) {
  const headers = { 'x-forwarded-for': address };
  if (transport === 'v1') return client('v1', which).request('POST', '/auth/login', { body, headers });
  return client('trpc', which).request('POST', '/auth.login', { body, headers });
}

/** The token pair of a token response on either transport. */
function pair(res: Response): { accessToken: string; refreshToken: string } {
  const body = res.body as { accessToken?: string; result?: { data: { accessToken: string } } };
  return (body.result?.data ?? body) as { accessToken: string; refreshToken: string };
}

function expectUnauthorized(transport: Transport, res: Response, label: string) {
  expect(res.status, label).toBe(401);
  expect(codeOf(res), label).toBe('UNAUTHORIZED');
  expect(errorShapeOk(transport, res), label).toBe(true);
  expect(res.text, label).not.toMatch(/stack|\.ts:\d|jose|JWS|JWT[A-Z]/);
}

// --- forging -----------------------------------------------------------------------------------

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function sign(
  header: unknown,
  payload: unknown,
  options: { hash?: 'sha256' | 'sha384' | 'sha512'; secret?: string } = {},
) {
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = createHmac(options.hash ?? 'sha256', options.secret ?? TEST_SECRET)
    .update(input)
    .digest('base64url');
  return `${input}.${signature}`;
}

const HS256 = { alg: 'HS256', typ: 'JWT' };

function claimsOf(user: SignedIn): Record<string, unknown> {
  return JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString());
}

describe('forged, malformed and foreign access tokens', () => {
  let victim: SignedIn;
  let admin: SignedIn;
  let cases: Array<[string, string]>;

  beforeAll(async () => {
    [victim, admin] = await Promise.all([api.signUp(), api.signUp('admin')]);
    const now = Math.floor(Date.now() / 1000);
    const base = {
      sub: victim.id,
      sid: claimsOf(victim).sid,
      role: 'user',
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
      iat: now,
      exp: now + 3600,
    };
    const without = (key: string) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== key));
    const [h, p, s] = victim.token.split('.') as [string, string, string];
    const tamperedPayload = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'admin' });
    const swappedSub = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: admin.id });
    cases = [
      ['alg none, no signature', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(base)}.`],
      ['alg none, with a signature', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(base)}.${s}`],
      ['alg NONE', `${b64({ alg: 'NONE', typ: 'JWT' })}.${b64(base)}.`],
      ['alg None, no typ', `${b64({ alg: 'None' })}.${b64(base)}.`],
      ['HS384 with our secret', sign({ alg: 'HS384', typ: 'JWT' }, base, { hash: 'sha384' })],
      ['HS512 with our secret', sign({ alg: 'HS512', typ: 'JWT' }, base, { hash: 'sha512' })],
      ['HS256 header over an HS512 signature', sign(HS256, base, { hash: 'sha512' })],
      ['RS256 header (key confusion)', sign({ alg: 'RS256', typ: 'JWT' }, base)],
      ['another secret', sign(HS256, base, { secret: `${TEST_SECRET}-not-ours` })],
      ['an empty secret', sign(HS256, base, { secret: '' })],
      ['a jku header', sign({ ...HS256, jku: 'http://127.0.0.1:1/keys' }, base)],
      ['a kid header', sign({ ...HS256, kid: '../../../dev/null' }, base)],
      ['typ at+jwt', sign({ alg: 'HS256', typ: 'at+jwt' }, base)],
      ['tampered payload (role admin)', `${h}.${tamperedPayload}.${s}`],
      ['tampered payload (another sub)', `${h}.${swappedSub}.${s}`],
      ['tampered header', `${b64({ alg: 'HS256', typ: 'JWT', x: 1 })}.${p}.${s}`],
      ['signature stripped', `${h}.${p}.`],
      ['signature of another token', `${h}.${p}.${admin.token.split('.')[2]}`],
      ['wrong issuer', sign(HS256, { ...base, iss: 'someone-else' })],
      ['wrong audience', sign(HS256, { ...base, aud: 'someone-else' })],
      ['audience list without ours', sign(HS256, { ...base, aud: ['a', 'b'] })],
      ['no issuer', sign(HS256, without('iss'))],
      ['no audience', sign(HS256, without('aud'))],
      ['no exp', sign(HS256, without('exp'))],
      ['exp in the past', sign(HS256, { ...base, iat: now - 7200, exp: now - 60 })],
      ['exp now', sign(HS256, { ...base, exp: now })],
      ['exp as a string', sign(HS256, { ...base, exp: String(now + 3600) })],
      ['exp null', sign(HS256, { ...base, exp: null })],
      ['exp 1e400 (Infinity)', sign(HS256, JSON.stringify(base).replace(/"exp":\d+/, '"exp":1e400'))],
      ['nbf in the future', sign(HS256, { ...base, nbf: now + 600 })],
      ['nbf not a number', sign(HS256, { ...base, nbf: 'soon' })],
      ['no iat', sign(HS256, without('iat'))],
      ['no sid', sign(HS256, without('sid'))],
      ['sid not a uuid', sign(HS256, { ...base, sid: "' or '1'='1" })],
      ['sid of no session', sign(HS256, { ...base, sid: missingId() })],
      ['sid of another user’s session', sign(HS256, { ...base, sid: claimsOf(admin).sid })],
      ['sub not a uuid', sign(HS256, { ...base, sub: 'admin' })],
      ['sub a number', sign(HS256, { ...base, sub: 42 })],
      ['no sub', sign(HS256, without('sub'))],
      ['payload an array', sign(HS256, [base])],
      ['payload null', sign(HS256, null)],
      ['payload not JSON', sign(HS256, 'not json')],
      ['header not JSON', `${b64('{"alg":')}.${p}.${s}`],
      ['garbage', 'garbage'],
      ['a.b.c', 'a.b.c'],
      ['dots only', '..'],
      ['four parts', `${victim.token}.x`],
      ['base64 padding', `${h}=.${p}.${s}`],
      ['oversized (5 KB)', 'x'.repeat(5_000)],
      ['oversized signed payload (10 KB)', sign(HS256, { ...base, pad: 'p'.repeat(7_500) })],
      ['oversized (15 KB, under the header limit)', `${h}.${'A'.repeat(15_000)}.${s}`],
    ];
    // The control: the same claims signed properly are accepted.
    expect((await me('v1', sign(HS256, base))).status).toBe(200);
  });

  it.each(TRANSPORTS)(
    'answers 401 (never 500) to every one on %s, for a query and a mutation',
    async (transport) => {
      const before = await fingerprint(api.database.db);
      for (const [label, token] of cases) {
        expectUnauthorized(transport, await me(transport, token), `${transport} me: ${label}`);
        expectUnauthorized(
          transport,
          await createPlaylist(transport, token),
          `${transport} create: ${label}`,
        );
      }
      expect(await fingerprint(api.database.db)).toBe(before);
    },
  );

  it.each(TRANSPORTS)('answers 401 to malformed Authorization headers on %s', async (transport) => {
    const headers = [
      'Bearer',
      'Bearer ',
      'Bearer  \t ',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${victim.token} ${victim.token}`,
      `Bearer ${victim.token},Bearer ${admin.token}`,
      `Token ${victim.token}`,
      `Bearer ${victim.token.slice(0, -1)}`,
      `Bearer ${victim.token}\u00e9`,
      `Bearer ${'x'.repeat(8_000)}`,
    ];
    for (const header of headers) {
      const res =
        transport === 'v1'
          ? await api.request('GET', '/auth/me', { headers: { authorization: header } })
          : await trpc.request('GET', '/auth.me', { headers: { authorization: header } });
      expectUnauthorized(transport, res, `${transport}: ${header.slice(0, 30)}`);
    }
  });

  it.each(TRANSPORTS)(
    'reads the role fresh: a valid token claiming admin gives no admin rights on %s',
    async (transport) => {
      const claims = claimsOf(victim);
      const now = Math.floor(Date.now() / 1000);
      const lying = sign(HS256, { ...claims, role: 'admin', iat: now, exp: now + 600 });
      const res =
        transport === 'v1'
          ? await api.request('GET', '/users', { token: lying })
          : await trpc.call('users.list', {}, lying);
      expect(res.status).toBe(403);
      expect(codeOf(res)).toBe('FORBIDDEN');
    },
  );

  it.each(TRANSPORTS)(
    'ignores an invalid token on a public operation on %s (no 500, no identity)',
    async (transport) => {
      const res = await login(transport, { email: uniqueEmail('nobody'), password: 'whatever-password' });
      expect(res.status).toBe(401);
      const garbage =
        transport === 'v1'
          ? await api.request('POST', '/auth/refresh', { token: 'a.b.c', body: { refreshToken: 'x' } })
          : await trpc.call('auth.refresh', { refreshToken: 'x' }, 'a.b.c');
      expectUnauthorized(transport, garbage, 'refresh with a garbage bearer');
    },
  );
});

describe('refresh tokens across transports and instances', () => {
  it('rotates on /trpc; the replay of a rotated token revokes the session everywhere', async () => {
    const user = await api.signUp();
    const rotated = await refresh('trpc', user.refreshToken);
    expect(rotated.status).toBe(200);
    const next = pair(rotated);
    expect(next.refreshToken).not.toBe(user.refreshToken);
    expect((await me('trpc', next.accessToken)).status).toBe(200);
    expect((await me('v1', next.accessToken, 'sibling')).status).toBe(200);

    // The old token, replayed through the other transport on the other instance.
    expectUnauthorized('v1', await refresh('v1', user.refreshToken, 'sibling'), 'replay');
    for (const transport of TRANSPORTS) {
      for (const which of ['main', 'sibling'] as const) {
        expectUnauthorized(transport, await me(transport, next.accessToken, which), `${transport} ${which}`);
        expectUnauthorized(transport, await me(transport, user.token, which), `${transport} ${which} old`);
      }
      expectUnauthorized(
        transport,
        await refresh(transport, next.refreshToken),
        `${transport} newest refresh`,
      );
    }
  });

  it('lets exactly one of two concurrent /trpc refreshes of one token win, and the loser never 500s', async () => {
    const user = await api.signUp();
    const results = await Promise.all([
      refresh('trpc', user.refreshToken),
      refresh('v1', user.refreshToken, 'sibling'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const loser = results.find((r) => r.status === 401)!;
    expect(codeOf(loser)).toBe('UNAUTHORIZED');
  });

  it('refuses refresh tokens of odd shapes with 401 or 422, never 500', async () => {
    for (const transport of TRANSPORTS) {
      for (const refreshToken of [
        '',
        'x'.repeat(513),
        'x'.repeat(512),
        "'; drop table sessions; --",
        '\u0000',
        '%_%',
      ]) {
        const res = await refresh(transport, refreshToken);
        expect([401, 422], `${transport} ${JSON.stringify(refreshToken.slice(0, 20))}`).toContain(res.status);
      }
      for (const body of [{ refreshToken: 42 }, { refreshToken: null }, { refreshToken: ['a'] }, {}]) {
        const res =
          transport === 'v1'
            ? await api.request('POST', '/auth/refresh', { body })
            : await trpc.call('auth.refresh', body);
        expect(res.status, `${transport} ${JSON.stringify(body)}`).toBe(422);
      }
    }
  });
});

describe('session events reach every instance on the next request', () => {
  it('logout on /trpc ends the session on both transports of both instances', async () => {
    const user = await api.signUp();
    expect((await me('trpc', user.token, 'sibling')).status).toBe(200);
    const out = await trpc.call('auth.logout', undefined, user.token);
    expect(out.status).toBe(200);
    for (const transport of TRANSPORTS) {
      for (const which of ['main', 'sibling'] as const) {
        expectUnauthorized(transport, await me(transport, user.token, which), `${transport} ${which}`);
      }
      expectUnauthorized(
        transport,
        await refresh(transport, user.refreshToken, 'sibling'),
        `${transport} refresh`,
      );
    }
    // Logging out twice is a 401 (the session is gone), not a 500.
    expectUnauthorized('trpc', await trpc.call('auth.logout', undefined, user.token), 'second logout');
  });

  it('a demoted admin loses admin rights on /trpc and on the sibling at once; a promoted user gains them', async () => {
    const [admin, other] = await Promise.all([api.signUp('admin'), api.signUp('admin')]);
    expect((await trpc.call('users.list', {}, admin.token)).status).toBe(200);
    expect((await sibling.request('GET', '/users', { token: admin.token })).status).toBe(200);
    const demote = await api.request('PUT', `/users/${admin.id}`, {
      token: other.token,
      body: { username: 'Demoted', email: admin.email, password: admin.password, role: 'user' },
    });
    expect(demote.status).toBe(200);
    expect((await trpc.call('users.list', {}, admin.token)).status).toBe(403);
    expect((await siblingTrpc.call('users.list', {}, admin.token)).status).toBe(403);
    expect((await sibling.request('GET', '/users', { token: admin.token })).status).toBe(403);
    // ...and cannot promote themself back.
    const back = await trpc.call(
      'users.update',
      { userId: admin.id, username: 'Demoted', email: admin.email, password: admin.password, role: 'admin' },
      admin.token,
    );
    expect(back.status).toBe(403);

    await api.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    expect((await siblingTrpc.call('users.list', {}, admin.token)).status).toBe(200);
  });

  it.each(TRANSPORTS)(
    'deleting a user (themself, on %s) ends all their sessions everywhere',
    async (transport) => {
      const user = await api.signUp();
      const second = await login('v1', { email: user.email, password: user.password });
      expect(second.status).toBe(200);
      const secondPair = pair(second);
      const deleted =
        transport === 'v1'
          ? await api.request('DELETE', `/users/${user.id}`, { token: user.token })
          : await trpc.call('users.delete', { userId: user.id }, user.token);
      expect(deleted.status).toBe(transport === 'v1' ? 204 : 200);
      for (const t of TRANSPORTS) {
        for (const which of ['main', 'sibling'] as const) {
          for (const token of [user.token, secondPair.accessToken]) {
            expectUnauthorized(t, await me(t, token, which), `${t} ${which}`);
          }
        }
        expectUnauthorized(t, await refresh(t, user.refreshToken), `${t} refresh`);
        expectUnauthorized(t, await refresh(t, secondPair.refreshToken, 'sibling'), `${t} refresh 2`);
      }
      // Signing in again fails like any unknown email.
      expectUnauthorized('v1', await login('v1', { email: user.email, password: user.password }), 'login');
    },
  );

  it('an admin deleting a user ends that user’s sessions at once', async () => {
    const [admin, user] = await Promise.all([api.signUp('admin'), api.signUp()]);
    expect((await me('trpc', user.token, 'sibling')).status).toBe(200);
    expect((await trpc.call('users.delete', { userId: user.id }, admin.token)).status).toBe(200);
    expectUnauthorized('trpc', await me('trpc', user.token, 'sibling'), 'deleted user');
    expectUnauthorized('v1', await createPlaylist('v1', user.token), 'deleted user writes');
  });
});

describe('login: no account enumeration, throttling on both transports and instances', () => {
  it('gives identical statuses and bodies for an unknown email and a wrong password on /trpc', async () => {
    const user = await api.signUp();
    const wrong = await login('trpc', { email: user.email, password: 'not-the-password' });
    const unknown = await login('trpc', { email: uniqueEmail('nobody'), password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.text).toBe(wrong.text);
    expect(unknown.headers.get('content-type')).toBe(wrong.headers.get('content-type'));
    // Upper-cased known email: still the same answer (and no hint it exists).
    const upper = await login('trpc', { email: user.email.toUpperCase(), password: 'not-the-password' });
    expect(upper.text).toBe(wrong.text);
  });

  it('takes about the same time for an unknown email as for a wrong password', async () => {
    const user = await api.signUp();
    const durations = { wrong: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 5; i++) {
      for (const kind of ['wrong', 'unknown'] as const) {
        const email = kind === 'wrong' ? user.email : uniqueEmail('nobody');
        const started = performance.now();
        const res = await login('v1', { email, password: 'not-the-password' });
        durations[kind].push(performance.now() - started);
        expect(res.status).toBe(401);
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [wrong, unknown] = [median(durations.wrong), median(durations.unknown)];
    // Both verify an argon2 hash (a real one or a dummy); skipping it would make one ~20x faster.
    expect(
      Math.min(wrong, unknown) / Math.max(wrong, unknown),
      `wrong ${wrong} ms, unknown ${unknown} ms`,
    ).toBeGreaterThan(0.4);
  });

  it('throttles an email on /trpc with 429 and Retry-After, counting failures from both transports', async () => {
    const user = await api.signUp();
    for (let i = 0; i < 6; i++) {
      const res = await login(
        i % 2 ? 'trpc' : 'v1',
        { email: user.email, password: 'wrong-password' },
        uniqueAddress(),
        i % 3 ? 'main' : 'sibling',
      );
      expect(res.status).toBe(401);
    }
    const blocked = await login('trpc', { email: user.email, password: user.password });
    expect(blocked.status).toBe(429);
    expect(codeOf(blocked)).toBe('TOO_MANY_REQUESTS');
    expect(errorShapeOk('trpc', blocked)).toBe(true);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.stringify(blocked.body)).not.toContain('accessToken');
    // An upper-cased variant of the email is the same email.
    const variant = await login('v1', { email: ` ${user.email.toUpperCase()} `, password: user.password });
    expect(variant.status).toBe(429);
  });

  it('throttles one client address across emails and across two instances', async () => {
    const address = uniqueAddress();
    for (let i = 0; i < 6; i++) {
      const res = await login(
        i % 2 ? 'trpc' : 'v1',
        { email: uniqueEmail('spray'), password: 'wrong-password' },
        address,
        i < 3 ? 'main' : 'sibling',
      );
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    for (const which of ['main', 'sibling'] as const) {
      for (const transport of TRANSPORTS) {
        const res = await login(
          transport,
          { email: uniqueEmail('spray'), password: 'wrong-password' },
          address,
          which,
        );
        expect(res.status, `${transport} ${which}`).toBe(429);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    }
    // A real account signing in from that address is refused too; from another address it is not.
    const user = await api.signUp();
    expect((await login('v1', { email: user.email, password: user.password }, address)).status).toBe(429);
    expect(
      (await login('trpc', { email: user.email, password: user.password }, uniqueAddress())).status,
    ).toBe(200);
  });

  it('refuses batched and multi-procedure calls on /trpc, by GET and by POST', async () => {
    const user = await api.signUp();
    const attempts = [
      trpc.request('GET', `/auth.me,auth.me?batch=1&input=${encodeURIComponent('{}')}`, {
        token: user.token,
      }),
      trpc.request('POST', '/auth.login?batch=1', {
        body: { 0: { email: user.email, password: 'wrong-password' } },
      }),
      trpc.request('POST', '/auth.login,auth.login', {
        body: { email: user.email, password: 'wrong-password' },
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(JSON.stringify(res.body)).not.toContain('accessToken');
    }
  });
});
