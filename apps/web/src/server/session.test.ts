import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// A real HTTP server standing in for the API, recording what reaches it.
let server: Server;
let calls: Array<{ method: string; path: string; authorization?: string; body: string }> = [];
let session: typeof import('./session');
let trpcRoute: typeof import('../app/api/trpc/[trpc]/route');
let refreshRoute: typeof import('../app/api/session/refresh/route');
let sessionRoute: typeof import('../app/api/session/route');

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      calls.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (path === '/v1/auth/refresh') {
        const { refreshToken } = JSON.parse(body) as { refreshToken: string };
        if (refreshToken.startsWith('good')) {
          return json(200, {
            accessToken: `access-for-${refreshToken}`,
            refreshToken: `next-${refreshToken}`,
            tokenType: 'Bearer',
            expiresIn: 600,
          });
        }
        if (refreshToken === 'down') return json(503, { code: 'SERVICE_UNAVAILABLE', message: 'down' });
        return json(401, { code: 'UNAUTHORIZED', message: 'no' });
      }
      if (path === '/v1/auth/logout') {
        res.writeHead(204);
        return res.end();
      }
      if (path.startsWith('/trpc/')) {
        if (req.headers.authorization?.startsWith('Bearer access'))
          return json(200, { result: { data: 'ok' } });
        return json(401, {
          error: { message: 'no', code: -32001, data: { code: 'UNAUTHORIZED', httpStatus: 401 } },
        });
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
  options: { method?: string; cookies?: Record<string, string>; origin?: string } = {},
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
    },
    ...(options.method === 'POST' ? { body: '{}' } : {}),
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
      ['/v1/auth/refresh', { refreshToken: 'good-1' }],
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

describe('sign-out', () => {
  it('ends the session on the API even when only the refresh cookie is left', async () => {
    const res = await sessionRoute.DELETE(
      request('/api/session', { method: 'DELETE', cookies: { mc_refresh: 'good-3' } }),
    );
    expect(res.status).toBe(204);
    expect(calls.map((c) => [c.path, c.authorization])).toEqual([
      ['/v1/auth/refresh', undefined],
      ['/v1/auth/logout', 'Bearer access-for-good-3'],
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
