import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { fake, procedure, request, setCookies, startFakeApi, USER } from '../../test/fake-api';

startFakeApi();

describe('/api/trpc: forwards, never refreshes, never touches the cookies', () => {
  it('passes a call with a valid access token through', async () => {
    const res = await fake.trpcRoute.GET(
      request('/api/trpc/auth.me', { cookies: { mc_access: 'access-1' } }),
      procedure('auth.me'),
    );
    expect(res.status).toBe(200);
    expect(fake.calls.map((c) => [c.path, c.authorization])).toEqual([['/trpc/auth.me', 'Bearer access-1']]);
  });

  it('answers a refused access token with the API 401 and leaves every cookie as it is', async () => {
    const res = await fake.trpcRoute.GET(
      request('/api/trpc/auth.me', { cookies: { mc_access: 'expired', mc_refresh: 'good-1' } }),
      procedure('auth.me'),
    );
    expect(res.status).toBe(401);
    expect(fake.calls.map((c) => c.path)).toEqual(['/trpc/auth.me']);
    expect(setCookies(res)).toEqual({});
  });

  it('never hands out tokens: sign-in and refresh are refused here, without asking the API', async () => {
    for (const name of ['auth.login', 'auth.refresh']) {
      const res = await fake.trpcRoute.POST(
        request(`/api/trpc/${name}`, {
          method: 'POST',
          body: '{"email":"admin@console.test","password":"right"}',
        }),
        procedure(name),
      );
      expect(res.status, name).toBe(404);
      expect(await res.text()).not.toContain('access');
    }
    expect(fake.calls).toEqual([]);
  });

  it('answers 401 at once when only the refresh cookie is left, without asking the API', async () => {
    const res = await fake.trpcRoute.GET(
      request('/api/trpc/auth.me', { cookies: { mc_refresh: 'good-1' } }),
      procedure('auth.me'),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { data: { code: 'UNAUTHORIZED', httpStatus: 401 } } });
    expect(fake.calls).toEqual([]);
    expect(setCookies(res)).toEqual({});
  });
});

describe('/api/trpc: account recovery goes out anonymous', () => {
  it('never sends a bearer token nor asks for a refresh, whatever the cookies', async () => {
    const cases: Record<string, string>[] = [
      {},
      { mc_refresh: 'ended-1' },
      { mc_access: 'access-1', mc_refresh: 'good-1' },
    ];
    for (const cookies of cases) {
      const res = await fake.trpcRoute.POST(
        request('/api/trpc/auth.requestPasswordReset', {
          method: 'POST',
          cookies,
          body: '{"email":"someone@console.test"}',
        }),
        procedure('auth.requestPasswordReset'),
      );
      expect(res.status, JSON.stringify(cookies)).toBe(202);
      expect(setCookies(res)).toEqual({});
    }
    expect(fake.calls.map((c) => [c.path, c.authorization])).toEqual(
      cases.map(() => ['/trpc/auth.requestPasswordReset', undefined]),
    );
  });
});

describe('/api/session/refresh: spends the refresh token once', () => {
  it('sets the new pair and a new readable generation', async () => {
    const res = await fake.refreshRoute.POST(
      request('/api/session/refresh', { method: 'POST', cookies: { mc_refresh: 'good-1' } }),
    );
    expect(res.status).toBe(200);
    expect(fake.calls.map((c) => [c.path, JSON.parse(c.body)])).toEqual([
      ['/trpc/auth.refresh', { refreshToken: 'good-1' }],
    ]);
    const cookies = setCookies(res);
    expect(cookies.mc_access).toMatchObject({ value: 'access-for-good-1', httpOnly: true, maxAge: 570 });
    expect(cookies.mc_refresh).toMatchObject({ value: 'next-good-1', httpOnly: true });
    expect(cookies.mc_session).toMatchObject({ httpOnly: false });
    expect(cookies.mc_session!.value).toMatch(/^[\w-]{12}$/);
    const again = setCookies(
      await fake.refreshRoute.POST(
        request('/api/session/refresh', { method: 'POST', cookies: { mc_refresh: 'good-2' } }),
      ),
    );
    expect(again.mc_session!.value).not.toBe(cookies.mc_session!.value);
  });

  it('clears the cookies when the API refuses: the session is over', async () => {
    const res = await fake.refreshRoute.POST(
      request('/api/session/refresh', { method: 'POST', cookies: { mc_refresh: 'revoked' } }),
    );
    expect(res.status).toBe(401);
    const cookies = setCookies(res);
    for (const name of ['mc_access', 'mc_refresh', 'mc_session'])
      expect(cookies[name]).toMatchObject({ value: '', maxAge: 0 });
  });

  it('answers 401 without touching any cookie when there is no refresh cookie to spend', async () => {
    const res = await fake.refreshRoute.POST(request('/api/session/refresh', { method: 'POST' }));
    expect(res.status).toBe(401);
    expect(setCookies(res)).toEqual({});
    expect(fake.calls).toEqual([]);
  });

  it('keeps the cookies when the API cannot answer, and says so with 503', async () => {
    const res = await fake.refreshRoute.POST(
      request('/api/session/refresh', { method: 'POST', cookies: { mc_refresh: 'down' } }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      error: { data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 } },
    });
    expect(setCookies(res)).toEqual({});
  });

  it('refuses cross-site calls without spending anything', async () => {
    const res = await fake.refreshRoute.POST(
      request('/api/session/refresh', {
        method: 'POST',
        cookies: { mc_refresh: 'good-1' },
        origin: 'https://evil.example',
      }),
    );
    expect(res.status).toBe(403);
    expect(fake.calls).toEqual([]);
  });
});

describe('sign-in: the API answers through the console, tokens into cookies', () => {
  const signIn = (body: unknown) =>
    fake.sessionRoute.POST(
      request('/api/session', {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        // The one address the console's server sets (console-server/forwarded.ts).
        headers: { 'x-forwarded-for': '198.51.100.7' },
      }),
    );

  it('sets the session cookies and answers the user only, forwarding the client address', async () => {
    const res = await signIn({ email: 'admin@console.test', password: 'right' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: USER });
    expect(fake.calls.map((c) => [c.path, c.forwardedFor, JSON.parse(c.body)])).toEqual([
      ['/trpc/auth.login', '198.51.100.7', { email: 'admin@console.test', password: 'right' }],
    ]);
    const cookies = setCookies(res);
    expect(cookies.mc_access).toMatchObject({ value: 'access-new', httpOnly: true, maxAge: 570 });
    expect(cookies.mc_refresh).toMatchObject({ value: 'refresh-new', httpOnly: true });
    expect(cookies.mc_session).toMatchObject({ httpOnly: false });
  });

  it('passes refusals on in the /v1 error body: 401, 429 with Retry-After, 422 with field errors', async () => {
    const wrong = await signIn({ email: 'admin@console.test', password: 'wrong' });
    expect([wrong.status, await wrong.json()]).toEqual([
      401,
      { code: 'UNAUTHORIZED', message: 'UNAUTHORIZED said the API' },
    ]);
    expect(setCookies(wrong)).toEqual({});
    const throttled = await signIn({ email: 'throttled@console.test', password: 'right' });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('900');
    expect(await throttled.json()).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: 'TOO_MANY_REQUESTS said the API',
    });
    const invalid = await signIn({ email: 'nobody', password: 'right' });
    expect([invalid.status, await invalid.json()]).toEqual([
      422,
      {
        code: 'VALIDATION_FAILED',
        message: 'VALIDATION_FAILED said the API',
        errors: [{ field: 'email', message: 'Invalid email address' }],
      },
    ]);
  });

  it('answers 503 when the API cannot be reached, and keeps the status of an answer not its own', async () => {
    const away = await signIn({ email: 'hang-up@console.test', password: 'right' });
    expect([away.status, (await away.json()).code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    const proxy = await signIn({ email: 'proxy@console.test', password: 'right' });
    expect([proxy.status, await proxy.json()]).toEqual([
      502,
      { code: 'INTERNAL_SERVER_ERROR', message: 'Unexpected answer' },
    ]);
  });

  it('refuses a body that is not a JSON object with 400, without asking the API', async () => {
    for (const body of ['', '{"email":', '[1]']) expect((await signIn(body)).status).toBe(400);
    expect(fake.calls).toEqual([]);
  });
});

describe('sign-out', () => {
  it('ends the session on the API even when only the refresh cookie is left', async () => {
    const res = await fake.sessionRoute.DELETE(
      request('/api/session', { method: 'DELETE', cookies: { mc_refresh: 'good-3' } }),
    );
    expect(res.status).toBe(204);
    expect(fake.calls.map((c) => [c.path, c.authorization])).toEqual([
      ['/trpc/auth.refresh', undefined],
      ['/trpc/auth.logout', 'Bearer access-for-good-3'],
    ]);
    const cookies = setCookies(res);
    for (const name of ['mc_access', 'mc_refresh', 'mc_session'])
      expect(cookies[name]).toMatchObject({ maxAge: 0 });
  });
});

describe('request checks', () => {
  const plain = (headers: Record<string, string>) =>
    new NextRequest('http://console.test/api/session', { method: 'POST', headers });

  it('accepts same-origin calls and refuses cross-site ones', () => {
    expect(fake.session.isSameOrigin(plain({ host: 'console.test', origin: 'http://console.test' }))).toBe(
      true,
    );
    expect(fake.session.isSameOrigin(plain({ host: 'console.test', origin: 'https://evil.example' }))).toBe(
      false,
    );
    expect(fake.session.isSameOrigin(plain({ host: 'console.test', origin: 'null' }))).toBe(false);
    expect(fake.session.isSameOrigin(plain({ host: 'console.test', 'sec-fetch-site': 'cross-site' }))).toBe(
      false,
    );
    expect(fake.session.isSameOrigin(plain({ host: 'console.test' }))).toBe(true); // curl, scripts
  });

  it('forwards the client address the console server set, for sign-in throttling', () => {
    expect(fake.session.forwardedFor(plain({ 'x-forwarded-for': ' 10.0.0.1 ' }))).toEqual({
      'x-forwarded-for': '10.0.0.1',
    });
    expect(fake.session.forwardedFor(plain({}))).toEqual({});
  });
});
