import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from './server';
import { createClient, startTestApi, TEST_SECRET, type TestApi, uniqueEmail } from './testing/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ LOGIN_MAX_FAILURES_PER_EMAIL: 3, LOGIN_MAX_FAILURES_PER_ADDRESS: 1000 });
});
afterAll(() => api?.close());

const userShape = {
  id: expect.stringMatching(/^[0-9a-f-]{36}$/),
  username: expect.any(String),
  email: expect.any(String),
  role: 'user',
  createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
  updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
};

async function newAccount() {
  const email = uniqueEmail('auth');
  const password = 'a-good-password';
  const res = await api.request<{ id: string }>('POST', '/users', {
    body: { username: 'Auth Test', email, password },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id, email, password };
}

describe('POST /v1/auth/login', () => {
  it('signs in with the contract token response and no-store caching', async () => {
    const { email, password, id } = await newAccount();
    const res = await api.request('POST', '/auth/login', { body: { email: email.toUpperCase(), password } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 86400,
      user: { ...userShape, id, email },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const claims = JSON.parse(
      Buffer.from((res.body as { accessToken: string }).accessToken.split('.')[1]!, 'base64url').toString(),
    );
    expect(claims).toMatchObject({ sub: id, role: 'user', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE });
    expect(claims.exp - claims.iat).toBe(86400);
    expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives the same 401 for an unknown email and a wrong password', async () => {
    const { email } = await newAccount();
    const wrong = await api.request('POST', '/auth/login', { body: { email, password: 'not-the-password' } });
    const unknown = await api.request('POST', '/auth/login', {
      body: { email: uniqueEmail('nobody'), password: 'not-the-password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers 422 naming each missing field, and 400 for a body that is not JSON', async () => {
    const missing = await api.request('POST', '/auth/login', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    const fields = (missing.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field).sort();
    expect(fields).toEqual(['email', 'password']);
    const garbage = await api.request('POST', '/auth/login', {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
  });

  it('throttles an email after the configured failures, even with the right password', async () => {
    const { email, password } = await newAccount();
    for (let i = 0; i < 3; i++) {
      expect(
        (await api.request('POST', '/auth/login', { body: { email, password: 'wrong-password' } })).status,
      ).toBe(401);
    }
    const blocked = await api.request('POST', '/auth/login', { body: { email, password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ code: 'TOO_MANY_REQUESTS', message: expect.any(String) });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('holds the email throttle across API instances on one database', async () => {
    const sibling = await api.startSibling();
    const { email, password } = await newAccount();
    for (let i = 0; i < 3; i++) {
      const client = i % 2 === 0 ? api : sibling;
      await client.request('POST', '/auth/login', { body: { email, password: 'wrong-password' } });
    }
    expect((await sibling.request('POST', '/auth/login', { body: { email, password } })).status).toBe(429);
    expect((await api.request('POST', '/auth/login', { body: { email, password } })).status).toBe(429);
  });

  it("clears an email's failures after a successful sign-in", async () => {
    const { email, password } = await newAccount();
    for (let i = 0; i < 2; i++)
      await api.request('POST', '/auth/login', { body: { email, password: 'wrong-password' } });
    expect((await api.request('POST', '/auth/login', { body: { email, password } })).status).toBe(200);
    for (let i = 0; i < 2; i++)
      await api.request('POST', '/auth/login', { body: { email, password: 'wrong-password' } });
    expect((await api.request('POST', '/auth/login', { body: { email, password } })).status).toBe(200);
  });
});

describe('login throttling under concurrency and clock skew', () => {
  it('checks no more than the limit of simultaneous wrong passwords, across instances', async () => {
    const sibling = await api.startSibling();
    const { email, password } = await newAccount();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? api : sibling).request('POST', '/auth/login', {
          body: { email, password: 'wrong-password' },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(27);
    for (const a of answers.filter((a) => a.status === 429)) {
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await sibling.request('POST', '/auth/login', { body: { email, password } })).status).toBe(429);
  });

  // The embedded database runs in this process and reads its clock: only a server has its own.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'measures windows on the database clock: a fast application clock neither lifts nor clears one',
    async () => {
      const throttled = await newAccount();
      const other = await newAccount();
      for (let i = 0; i < 3; i++) {
        await api.request('POST', '/auth/login', {
          body: { email: throttled.email, password: 'wrong-password' },
        });
      }
      await api.request('POST', '/auth/login', { body: { email: other.email, password: 'wrong-password' } });
      await api.request('POST', '/auth/login', { body: { email: other.email, password: 'wrong-password' } });
      // This process (the API included) now believes it is 16 minutes later than the database does.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * 60 * 1000 });
      try {
        const blocked = await api.request('POST', '/auth/login', {
          body: { email: throttled.email, password: throttled.password },
        });
        expect(blocked.status).toBe(429);
        expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
        // The other email's two failures are still counted: its third is the last one checked.
        expect(
          (
            await api.request('POST', '/auth/login', {
              body: { email: other.email, password: 'wrong-password' },
            })
          ).status,
        ).toBe(401);
        expect(
          (
            await api.request('POST', '/auth/login', {
              body: { email: other.email, password: other.password },
            })
          ).status,
        ).toBe(429);
      } finally {
        vi.useRealTimers();
      }
    },
  );
});

describe('per-address login throttling', () => {
  it('limits failed attempts per client address across emails', async () => {
    const limited = await startTestApi({
      LOGIN_MAX_FAILURES_PER_EMAIL: 100,
      LOGIN_MAX_FAILURES_PER_ADDRESS: 4,
    });
    try {
      const address = { 'x-forwarded-for': '203.0.113.7' };
      for (let i = 0; i < 4; i++) {
        const res = await limited.request('POST', '/auth/login', {
          body: { email: uniqueEmail('spray'), password: 'wrong-password' },
          headers: address,
        });
        expect(res.status).toBe(401);
      }
      const blocked = await limited.request('POST', '/auth/login', {
        body: { email: uniqueEmail('spray'), password: 'wrong-password' },
        headers: address,
      });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
      // Another client address is not affected.
      const other = await limited.request('POST', '/auth/login', {
        body: { email: uniqueEmail('spray'), password: 'wrong-password' },
        headers: { 'x-forwarded-for': '203.0.113.8' },
      });
      expect(other.status).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('does not count successful sign-ins against the address (an office behind one address)', async () => {
    const limited = await startTestApi({
      LOGIN_MAX_FAILURES_PER_EMAIL: 100,
      LOGIN_MAX_FAILURES_PER_ADDRESS: 2,
    });
    try {
      const office = { 'x-forwarded-for': '203.0.113.20' };
      const email = uniqueEmail('office');
      const password = 'a-good-password';
      expect(
        (await limited.request('POST', '/users', { body: { username: 'Office', email, password } })).status,
      ).toBe(201);
      for (let i = 0; i < 6; i++) {
        const res = await limited.request('POST', '/auth/login', {
          body: { email, password },
          headers: office,
        });
        expect(res.status).toBe(200);
      }
      for (let i = 0; i < 2; i++) {
        const res = await limited.request('POST', '/auth/login', {
          body: { email, password: 'wrong-password' },
          headers: office,
        });
        expect(res.status).toBe(401);
      }
      expect(
        (await limited.request('POST', '/auth/login', { body: { email, password }, headers: office })).status,
      ).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('access tokens: lifetime and key rotation', () => {
  it('issues tokens of ACCESS_TOKEN_TTL_SECONDS and says so in expiresIn', async () => {
    const short = await api.startSibling({ ACCESS_TOKEN_TTL_SECONDS: 600 });
    const { email, password } = await newAccount();
    const res = await short.request('POST', '/auth/login', { body: { email, password } });
    expect(res.status).toBe(200);
    expect(res.body.expiresIn).toBe(600);
    const claims = JSON.parse(Buffer.from(res.body.accessToken.split('.')[1]!, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(600);
  });

  it('rotates the signing key without signing anyone out', async () => {
    const next = 'the-next-signing-key-for-the-http-suite-0123456789';
    const { email, password } = await newAccount();
    const before = (await api.request('POST', '/auth/login', { body: { email, password } })).body.accessToken;
    // Step 1: every instance accepts the next key; step 2: they sign with it, still accepting the old.
    const accepting = await api.startSibling({ jwtPreviousSecrets: [next] });
    const rotated = await api.startSibling({ jwtSecret: next, jwtPreviousSecrets: [TEST_SECRET] });
    const after = (await rotated.request('POST', '/auth/login', { body: { email, password } })).body
      .accessToken;
    const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    expect(header(after).kid).not.toBe(header(before).kid);
    for (const instance of [accepting, rotated]) {
      for (const token of [before, after]) {
        expect((await instance.request('GET', '/auth/me', { token })).status).toBe(200);
      }
    }
    // Step 3, a token lifetime later: the old key is dropped, and its tokens with it.
    const dropped = await api.startSibling({ jwtSecret: next, jwtPreviousSecrets: [] });
    expect((await dropped.request('GET', '/auth/me', { token: after })).status).toBe(200);
    const refused = await dropped.request('GET', '/auth/me', { token: before });
    expect(refused.status).toBe(401);
  });
});

describe('POST /v1/auth/refresh', () => {
  it('rotates: a new refresh token works, the old one stops at once', async () => {
    const user = await api.signUp();
    const first = await api.request<{ refreshToken: string; accessToken: string }>('POST', '/auth/refresh', {
      body: { refreshToken: user.refreshToken },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 86400,
      user: expect.objectContaining({ id: user.id, email: user.email }),
    });
    expect(first.body.refreshToken).not.toBe(user.refreshToken);
    expect((await api.request('GET', '/auth/me', { token: first.body.accessToken })).status).toBe(200);
    const second = await api.request('POST', '/auth/refresh', {
      body: { refreshToken: first.body.refreshToken },
    });
    expect(second.status).toBe(200);
  });

  it('treats reuse of a rotated token as theft and revokes the whole session', async () => {
    const user = await api.signUp();
    const rotated = await api.request<{ refreshToken: string; accessToken: string }>(
      'POST',
      '/auth/refresh',
      {
        body: { refreshToken: user.refreshToken },
      },
    );
    expect(rotated.status).toBe(200);
    const replay = await api.request('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
    // Every token of that session is dead now: the thief's and the owner's.
    expect((await api.request('GET', '/auth/me', { token: rotated.body.accessToken })).status).toBe(401);
    expect((await api.request('GET', '/auth/me', { token: user.token })).status).toBe(401);
    const next = await api.request('POST', '/auth/refresh', {
      body: { refreshToken: rotated.body.refreshToken },
    });
    expect(next.status).toBe(401);
  });

  it('lets exactly one of two concurrent refreshes of one token succeed', async () => {
    const user = await api.signUp();
    const results = await Promise.all(
      [0, 1].map(() => api.request('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('refuses unknown tokens with 401 and a missing one with 422', async () => {
    expect((await api.request('POST', '/auth/refresh', { body: { refreshToken: 'nope' } })).status).toBe(401);
    const missing = await api.request('POST', '/auth/refresh', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ errors: [{ field: 'refreshToken', message: expect.any(String) }] });
  });
});

describe('POST /v1/auth/logout', () => {
  it('answers 204 with no body and ends the session on every instance', async () => {
    const sibling = await api.startSibling();
    const user = await api.signUp();
    expect((await sibling.request('GET', '/auth/me', { token: user.token })).status).toBe(200);
    const res = await api.request('POST', '/auth/logout', { token: user.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBeNull();
    expect((await api.request('GET', '/auth/me', { token: user.token })).status).toBe(401);
    expect((await sibling.request('GET', '/auth/me', { token: user.token })).status).toBe(401);
    expect(
      (await api.request('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })).status,
    ).toBe(401);
  });

  it('needs a token', async () => {
    const res = await api.request('POST', '/auth/logout');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
  });
});

describe('GET /v1/auth/me and token checks', () => {
  it('returns the signed-in user', async () => {
    const user = await api.signUp();
    const res = await api.request('GET', '/auth/me', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...userShape, id: user.id, email: user.email });
  });

  async function forge(
    claims: Record<string, unknown>,
    options: { alg?: string; secret?: string; exp?: number } = {},
  ) {
    const user = await api.signUp();
    const sid = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString()).sid;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ role: 'admin', sid, ...claims })
      .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer((claims.iss as string) ?? TOKEN_ISSUER)
      .setAudience((claims.aud as string) ?? TOKEN_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(options.exp ?? now + 3600)
      .sign(new TextEncoder().encode(options.secret ?? TEST_SECRET));
  }

  it('refuses forged, expired and foreign tokens with 401, never 500', async () => {
    const cases = [
      await forge({}, { secret: `${TEST_SECRET}-other` }),
      await forge({}, { alg: 'HS512' }),
      await forge({ iss: 'someone-else' }),
      await forge({ aud: 'someone-else' }),
      await forge({}, { exp: Math.floor(Date.now() / 1000) - 10 }),
      `eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.${Buffer.from(JSON.stringify({ sub: 'x', role: 'admin' })).toString('base64url')}.`,
      'garbage',
      'a.b.c',
      'x'.repeat(10_000),
    ];
    for (const token of cases) {
      const res = await api.request('GET', '/auth/me', { token });
      expect(res.status, token.slice(0, 40)).toBe(401);
      expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
    }
    for (const header of ['Basic abc', 'Bearer', 'Bearer a b c']) {
      const res = await api.request('GET', '/auth/me', { headers: { authorization: header } });
      expect(res.status).toBe(401);
    }
  });

  it('reads the role fresh: a demoted admin loses admin rights on the next request', async () => {
    const admin = await api.signUp('admin');
    expect((await api.request('GET', '/users', { token: admin.token })).status).toBe(200);
    await api.database.db.updateTable('users').set({ role: 'user' }).where('id', '=', admin.id).execute();
    expect((await api.request('GET', '/users', { token: admin.token })).status).toBe(403);
  });
});

describe('/trpc transport', () => {
  it('refuses batches, so one request cannot make many login attempts', async () => {
    const trpc = createClient(api.url.replace('/v1', '/trpc'));
    const res = await trpc.request('POST', '/auth.login,auth.login?batch=1', {
      body: { 0: { email: 'a@example.com', password: 'x' }, 1: { email: 'a@example.com', password: 'x' } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('accessToken');
  });

  it('signs in and enforces the same rules as /v1', async () => {
    const { email, password } = await newAccount();
    const trpc = createClient(api.url.replace('/v1', '/trpc'));
    const login = await trpc.request<{ result: { data: { accessToken: string } } }>('POST', '/auth.login', {
      body: { email, password },
    });
    expect(login.status).toBe(200);
    const token = login.body.result.data.accessToken;
    const me = await trpc.request<{ result: { data: { email: string } } }>('GET', '/auth.me', { token });
    expect(me.body.result.data.email).toBe(email);
    const list = await trpc.request<{ error: { data: { code: string; httpStatus: number } } }>(
      'GET',
      `/users.list?input=${encodeURIComponent('{}')}`,
      {
        token,
      },
    );
    expect(list.status).toBe(403);
    expect(list.body.error.data).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403 });
    expect(JSON.stringify(list.body)).not.toMatch(/stack|at .*\.ts/);
    const anonymous = await trpc.request('GET', '/auth.me');
    expect(anonymous.status).toBe(401);
  });
});
