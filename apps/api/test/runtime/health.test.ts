import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi, tryConnect } from '../support/harness';

const api = await startTestApi();
afterAll(() => api.close());

describe('operations endpoints', () => {
  it('GET /v1/health answers ok with the database state', async () => {
    const res = await api.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'ok' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('echoes a valid X-Request-Id and replaces an invalid one', async () => {
    const echoed = await api.request('GET', '/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await api.request('GET', '/health', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the docs page and its assets without a token', async () => {
    const page = await api.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('/v1/openapi.json');
    // An icon of its own, so the browser does not ask the API for /favicon.ico (a 404 here).
    const icon = /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,([^"]+)">/.exec(
      page.text,
    );
    expect(decodeURIComponent(icon?.[1] ?? '')).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<\/svg>$/,
    );
    const bundle = await fetch(`${api.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it('answers unknown paths and versions with 404 in the error shape', async () => {
    for (const path of ['/nothing-here', '/users/x/y/z']) {
      const res = await api.request('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    }
    const v2 = await fetch(api.url.replace('/v1', '/v2/users'));
    expect(v2.status).toBe(404);
    expect(await v2.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(v2.headers.get('x-api-deprecated')).toBeNull();
  });

  it('does not mark /v1 as deprecated', async () => {
    const res = await api.request('GET', '/health');
    expect(res.headers.get('x-api-deprecated')).toBeNull();
  });
});

describe('liveness, readiness and draining', () => {
  it('answers liveness with 200 and readiness with the database state', async () => {
    const live = await api.request('GET', '/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect((await api.request('POST', '/health/live')).status).toBe(405);
  });

  it('on close: readiness 503 at once, everything else served through the delay, then refused', async () => {
    const own = await startTestApi();
    try {
      const user = await own.signUp();
      const started = Date.now();
      const closed = own.server.close({ delayMs: 1_200, graceMs: 1_000 });
      const ready = await own.request('GET', '/health');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'draining', database: 'ok' });
      expect(ready.headers.get('retry-after')).toBe('5');
      expect((await own.request('GET', '/health/live')).status).toBe(200);
      // Reads and writes go on, on new connections too, until the delay is over.
      const me = await own.request('GET', '/auth/me', {
        token: user.token,
        headers: { connection: 'close' },
      });
      expect(me.status).toBe(200);
      const created = await own.request('POST', '/playlists', {
        token: user.token,
        body: { name: 'During' },
      });
      expect(created.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(1_200);
      await closed;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
      const { port } = new URL(own.url);
      expect(await tryConnect(Number(port))).toBe('ECONNREFUSED');
    } finally {
      await own.close();
    }
  });
});
