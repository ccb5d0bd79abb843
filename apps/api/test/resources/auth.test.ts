import { afterAll, describe, expect, it, vi } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../src/server';
import { startTestApi, TEST_SECRET, uniqueEmail } from '../support/harness';

const api = await startTestApi({ LOGIN_MAX_FAILURES_PER_EMAIL: 3, LOGIN_MAX_FAILURES_PER_ADDRESS: 1000 });
afterAll(() => api.close());

/** The contract's token response (sign-in and refresh) for `user`. */
const tokenResponse = (user: unknown) => ({
  accessToken: expect.any(String),
  refreshToken: expect.any(String),
  tokenType: 'Bearer',
  expiresIn: 86400,
  user,
});

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
    expect(res.body).toEqual(tokenResponse({ ...userShape, id, email }));
    expect(res.headers.get('cache-control')).toBe('no-store');
    const claims = JSON.parse(
      Buffer.from((res.body as { accessToken: string }).accessToken.split('.')[1]!, 'base64url').toString(),
    );
    expect(claims).toMatchObject({ sub: id, role: 'user', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE });
    expect(claims.exp - claims.iat).toBe(86400);
    expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a wrong password and an unknown email alike: 401, the same body', async () => {
    const { email } = await newAccount();
    const wrong = await api.request('POST', '/auth/login', { body: { email, password: 'not-the-password' } });
    const unknown = await api.request('POST', '/auth/login', {
      body: { email: uniqueEmail('nobody'), password: 'not-the-password' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid email or password' });
    expect(unknown.status).toBe(401);
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
  it('rotates: the contract token response, a working access token, the old refresh token spent', async () => {
    const user = await api.signUp();
    const first = await api.request<{ refreshToken: string; accessToken: string }>('POST', '/auth/refresh', {
      body: { refreshToken: user.refreshToken },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual(tokenResponse(expect.objectContaining({ id: user.id, email: user.email })));
    expect(first.body.refreshToken).not.toBe(user.refreshToken);
    expect((await api.request('GET', '/auth/me', { token: first.body.accessToken })).status).toBe(200);
    const second = await api.request('POST', '/auth/refresh', {
      body: { refreshToken: first.body.refreshToken },
    });
    expect(second.status).toBe(200);
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
});

describe('GET /v1/auth/me', () => {
  it('returns the signed-in user', async () => {
    const user = await api.signUp();
    const res = await api.request('GET', '/auth/me', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...userShape, id: user.id, email: user.email });
  });
});
