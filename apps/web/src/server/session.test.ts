import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorCode } from '@music/api-router/schemas';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// A real HTTP server standing in for the API, recording what reaches it. Its `/trpc` answers
// are the real API's (apps/api/src/app.ts, the error formatter in packages/api-router/src/trpc.ts):
// `{result: {data}}`, or `{error: {message, code, data: {code, httpStatus, path, ...}}}` with
// Retry-After beside `data.retryAfter`; a POST without a content type is a 400.
let server: Server;
let calls: Array<{ path: string; authorization?: string; forwardedFor?: string; body: string }> = [];
let session: typeof import('./session');
let trpcRoute: typeof import('../app/api/trpc/[trpc]/route');
let refreshRoute: typeof import('../app/api/session/refresh/route');
let sessionRoute: typeof import('../app/api/session/route');

// The JSON-RPC numbers tRPC sends beside each contract code (the console reads `data`, not these).
const RPC_CODES = {
  BAD_REQUEST: -32600,
  UNAUTHORIZED: -32001,
  VALIDATION_FAILED: -32022,
  TOO_MANY_REQUESTS: -32029,
  SERVICE_UNAVAILABLE: -32603,
} satisfies Partial<Record<ErrorCode, number>>;

const TOKENS = { tokenType: 'Bearer', expiresIn: 600 };
const USER = { id: 'u-1', username: 'admin', email: 'admin@console.test', role: 'admin' };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      const { authorization, 'x-forwarded-for': forwardedFor } = req.headers;
      calls.push({
        path,
        authorization,
        ...(forwardedFor ? { forwardedFor: String(forwardedFor) } : {}),
        body,
      });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(value));
      };
      const data = (value: unknown) => json(200, { result: value === undefined ? {} : { data: value } });
      const fail = (status: number, code: keyof typeof RPC_CODES, extra: Record<string, unknown> = {}) => {
        const retry: Record<string, string> =
          extra.retryAfter === undefined ? {} : { 'retry-after': String(extra.retryAfter) };
        const error = { message: `${code} said the API`, code: RPC_CODES[code] };
        const data = { code, httpStatus: status, path: path.slice('/trpc/'.length).split('?')[0], ...extra };
        json(status, { error: { ...error, data } }, retry);
      };
      if (req.method === 'POST' && !req.headers['content-type']) return fail(400, 'BAD_REQUEST');
      const input = body ? (JSON.parse(body) as Record<string, string>) : {};
      if (path === '/trpc/auth.login') {
        if (input.email === 'hang-up@console.test') return req.socket.destroy();
        if (input.email === 'proxy@console.test') {
          res.writeHead(502, { 'content-type': 'text/html' });
          return res.end('<h1>Bad gateway</h1>');
        }
        if (input.email === 'throttled@console.test')
          return fail(429, 'TOO_MANY_REQUESTS', { retryAfter: 900 });
        if (!input.email?.includes('@')) {
          return fail(422, 'VALIDATION_FAILED', {
            errors: [{ field: 'email', message: 'Invalid email address' }],
          });
        }
        if (input.password !== 'right') return fail(401, 'UNAUTHORIZED');
        return data({ ...TOKENS, accessToken: 'access-new', refreshToken: 'refresh-new', user: USER });
      }
      if (path === '/trpc/auth.refresh') {
        const { refreshToken } = input as { refreshToken: string };
        if (refreshToken.startsWith('good')) {
          return data({
            ...TOKENS,
            accessToken: `access-for-${refreshToken}`,
            refreshToken: `next-${refreshToken}`,
            user: USER,
          });
        }
        if (refreshToken === 'down') return fail(503, 'SERVICE_UNAVAILABLE', { retryAfter: 5 });
        return fail(401, 'UNAUTHORIZED');
      }
      if (path.startsWith('/trpc/')) {
        if (req.headers.authorization?.startsWith('Bearer access'))
          return data(path === '/trpc/auth.logout' ? undefined : 'ok');
        return fail(401, 'UNAUTHORIZED');
      }
      json(404, { code: 'NOT_FOUND', message: path });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  session = await import('./session');
  trpcRoute = await import('../app/api/trpc/[trpc]/route');
  refreshRoute = await import('../app/api/session/refresh/route');
  sessionRoute = await import('../app/api/session/route');
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  calls = [];
});

function request(
  path: string,
  options: {
    method?: string;
    cookies?: Record<string, string>;
    origin?: string;
    body?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const cookie = Object.entries(options.cookies ?? {})
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  return new NextRequest(`http://console.test${path}`, {
    method: options.method ?? 'GET',
    headers: {
      host: 'console.test',
      origin: options.origin ?? 'http://console.test',
      ...(cookie ? { cookie } : {}),
      ...(options.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.method === 'POST' ? { body: options.body ?? '{}' } : {}),
  });
}

/** The cookies a response sets: name -> { value, maxAge, httpOnly }. */
function setCookies(res: Response) {
  const out: Record<string, { value: string; maxAge?: number; httpOnly: boolean }> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const [name, ...value] = pair!.split('=');
    const maxAge = attributes.find((a) => a.toLowerCase().startsWith('max-age='));
    out[name!] = {
      value: value.join('='),
      ...(maxAge ? { maxAge: Number(maxAge.split('=')[1]) } : {}),
      httpOnly: attributes.some((a) => a.toLowerCase() === 'httponly'),
    };
  }
  return out;
}

const procedure = (name: string) => ({ params: Promise.resolve({ trpc: name }) });

describe('/api/trpc: forwards, never refreshes, never touches the cookies', () => {
  it('passes a call with a valid access token through', async () => {
    const res = await trpcRoute.GET(
      request('/api/trpc/auth.me', { cookies: { mc_access: 'access-1' } }),
      procedure('auth.me'),
    );
    expect(res.status).toBe(200);
    expect(calls.map((c) => [c.path, c.authorization])).toEqual([['/trpc/auth.me', 'Bearer access-1']]);
  });

  it('answers a refused access token with the API 401 and leaves every cookie as it is', async () => {
    const res = await trpcRoute.GET(
      request('/api/trpc/auth.me', { cookies: { mc_access: 'expired', mc_refresh: 'good-1' } }),
      procedure('auth.me'),
    );
    expect(res.status).toBe(401);
    expect(calls.map((c) => c.path)).toEqual(['/trpc/auth.me']);
    expect(setCookies(res)).toEqual({});
  });

  it('answers 401 at once when only the refresh cookie is left, without asking the API', async () => {
    const res = await trpcRoute.GET(
      request('/api/trpc/auth.me', { cookies: { mc_refresh: 'good-1' } }),
      procedure('auth.me'),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { data: { code: 'UNAUTHORIZED', httpStatus: 401 } } });
    expect(calls).toEqual([]);
    expect(setCookies(res)).toEqual({});
  });
});

describe('/api/session/refresh: spends the refresh token once', () => {
  it('sets the new pair and a new readable generation', async () => {
    const res = await refreshRoute.POST(
      request('/api/session/refresh', { method: 'POST', cookies: { mc_refresh: 'good-1' } }),
    );
    expect(res.status).toBe(200);
    expect(calls.map((c) => [c.path, JSON.parse(c.body)])).toEqual([
      ['/trpc/auth.refresh', { refreshToken: 'good-1' }],
    ]);
    const cookies = setCookies(res);
    expect(cookies.mc_access).toMatchObject({ value: 'access-for-good-1', httpOnly: true, maxAge: 570 });
    expect(cookies.mc_refresh).toMatchObject({ value: 'next-good-1', httpOnly: true });
    expect(cookies.mc_session).toMatchObject({ httpOnly: false });
    expect(cookies.mc_session!.value).toMatch(/^[\w-]{12}$/);
    const again = setCookies(
      await refreshRoute.POST(
        request('/api/session/refresh', { method: 'POST', cookies: { mc_refresh: 'good-2' } }),
      ),
    );
    expect(again.mc_session!.value).not.toBe(cookies.mc_session!.value);
  });

  it('clears the cookies when the API refuses: the session is over', async () => {
    const res = await refreshRoute.POST(
      request('/api/session/refresh', { method: 'POST', cookies: { mc_refresh: 'revoked' } }),
    );
    expect(res.status).toBe(401);
    const cookies = setCookies(res);
    for (const name of ['mc_access', 'mc_refresh', 'mc_session'])
      expect(cookies[name]).toMatchObject({ value: '', maxAge: 0 });
  });

  it('answers 401 without touching any cookie when there is no refresh cookie to spend', async () => {
    const res = await refreshRoute.POST(request('/api/session/refresh', { method: 'POST' }));
    expect(res.status).toBe(401);
    expect(setCookies(res)).toEqual({});
    expect(calls).toEqual([]);
  });

  it('keeps the cookies when the API cannot answer, and says so with 503', async () => {
    const res = await refreshRoute.POST(
      request('/api/session/refresh', { method: 'POST', cookies: { mc_refresh: 'down' } }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      error: { data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 } },
    });
    expect(setCookies(res)).toEqual({});
  });

  it('refuses cross-site calls without spending anything', async () => {
    const res = await refreshRoute.POST(
      request('/api/session/refresh', {
        method: 'POST',
        cookies: { mc_refresh: 'good-1' },
        origin: 'https://evil.example',
      }),
    );
    expect(res.status).toBe(403);
    expect(calls).toEqual([]);
  });
});

describe('sign-in: the API answers through the console, tokens into cookies', () => {
  const signIn = (body: unknown) =>
    sessionRoute.POST(
      request('/api/session', {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' },
      }),
    );

  it('sets the session cookies and answers the user only, forwarding the client address', async () => {
    const res = await signIn({ email: 'admin@console.test', password: 'right' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: USER });
    expect(calls.map((c) => [c.path, c.forwardedFor, JSON.parse(c.body)])).toEqual([
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
    expect(calls).toEqual([]);
  });
});

describe('sign-out', () => {
  it('ends the session on the API even when only the refresh cookie is left', async () => {
    const res = await sessionRoute.DELETE(
      request('/api/session', { method: 'DELETE', cookies: { mc_refresh: 'good-3' } }),
    );
    expect(res.status).toBe(204);
    expect(calls.map((c) => [c.path, c.authorization])).toEqual([
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
    expect(session.isSameOrigin(plain({ host: 'console.test', origin: 'http://console.test' }))).toBe(true);
    expect(session.isSameOrigin(plain({ host: 'console.test', origin: 'https://evil.example' }))).toBe(false);
    expect(session.isSameOrigin(plain({ host: 'console.test', origin: 'null' }))).toBe(false);
    expect(session.isSameOrigin(plain({ host: 'console.test', 'sec-fetch-site': 'cross-site' }))).toBe(false);
    expect(session.isSameOrigin(plain({ host: 'console.test' }))).toBe(true); // curl, scripts
  });

  it('forwards only the nearest client address for sign-in throttling', () => {
    expect(session.forwardedFor(plain({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' }))).toEqual({
      'x-forwarded-for': '10.0.0.1',
    });
    expect(session.forwardedFor(plain({}))).toEqual({});
  });
});
