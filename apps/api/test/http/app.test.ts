import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operations } from '@music/api-router';
import { createActor, createRouterHarness } from '@music/api-router/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { parseTrustProxy } from '../../src/http/trust-proxy';

/**
 * The app's own part of the contract, on the real app over a plain server: versioning (section
 * 6: a version marked deprecated answers every request with `X-API-Deprecated: true`, whichever
 * part of the app answers it; the current version does not) and the dispatcher's check order
 * (route and method, then the caller, then the input).
 */
const h = await createRouterHarness();
afterAll(() => h.close());
const handler = createApp({
  deps: h.deps,
  database: { ping: async () => {} },
  trustProxy: parseTrustProxy('none'),
  deprecatedVersions: ['v0'],
});
const server = createServer((req, res) => void handler(req, res));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => server.close(resolve)));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('a deprecated version', () => {
  it('marks every answer: health, a procedure, a 401, a 404 and a 405', async () => {
    const answers = [
      await fetch(`${base}/v0/health`),
      await fetch(`${base}/v0/songs`),
      await fetch(`${base}/v0/no-such-route`),
      await fetch(`${base}/v0/songs`, { method: 'PUT' }),
      await fetch(`${base}/v0/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }),
      }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 401, 404, 405, 401]);
    for (const res of answers) expect(res.headers.get('x-api-deprecated'), res.url).toBe('true');
  });

  it('leaves the current version and /trpc unmarked', async () => {
    for (const path of ['/v1/health', '/v1/songs', '/trpc/songs.list']) {
      const res = await fetch(`${base}${path}`);
      expect(res.headers.get('x-api-deprecated'), path).toBeNull();
    }
  });
});

const admin = await createActor(h.database.db, 'admin', h.deps.tokens);
const request = (method: string, path: string, init: { token?: string; body?: unknown } = {}) =>
  fetch(`${base}/v1${path}`, {
    method,
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });

describe('the check order of a /v1 request', () => {
  it('answers a method a route does not have with 405, its Allow header and the error body', async () => {
    const id = randomUUID();
    const songPut = await request('PUT', `/songs/${id}`, {
      token: admin.token,
      body: { title: 'x', duration: 1 },
    });
    expect(songPut.status).toBe(405);
    expect(songPut.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    expect(await songPut.json()).toEqual({ code: 'METHOD_NOT_ALLOWED', message: expect.any(String) });
    // PATCH /users/{id} exists since 1.2; POST does not.
    const userPost = await request('POST', `/users/${id}`, { token: admin.token, body: {} });
    expect(userPost.status).toBe(405);
    expect(userPost.headers.get('allow')?.split(', ').sort()).toEqual([
      'DELETE',
      'GET',
      'HEAD',
      'OPTIONS',
      'PATCH',
      'PUT',
    ]);
    const usersPut = await request('PUT', '/users', { token: admin.token, body: {} });
    expect(usersPut.status).toBe(405);
    expect(usersPut.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
  });

  it('answers 401 on every operation that needs a caller, without or with a malformed token, before reading the body', async () => {
    const needCaller = operations.filter((o) => !o.isPublic && o.route);
    expect(needCaller.length).toBeGreaterThan(20);
    for (const { route } of needCaller) {
      const path = route!.path.replace(/\{\w+\}/g, () => randomUUID());
      const body = route!.method === 'GET' ? undefined : { unknownField: true };
      for (const token of [undefined, 'not-a-jwt']) {
        const res = await request(route!.method, path, { ...(token ? { token } : {}), body });
        expect(res.status, `${route!.method} ${path} (${token ?? 'no token'})`).toBe(401);
        expect(await res.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
      }
    }
  });
});
