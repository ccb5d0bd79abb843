import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A real HTTP server standing in for the API's refresh endpoint, counting the calls it gets.
let server: Server;
let calls = 0;
let session: typeof import('./session');

beforeAll(async () => {
  server = createServer((req, res) => {
    calls++;
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const { refreshToken } = JSON.parse(body) as { refreshToken: string };
      setTimeout(() => {
        if (refreshToken.startsWith('good')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              accessToken: `access-for-${refreshToken}`,
              refreshToken: `next-${refreshToken}`,
              expiresIn: 86400,
            }),
          );
        } else {
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end('{"code":"UNAUTHORIZED","message":"no"}');
        }
      }, 50);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  session = await import('./session');
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('refreshTokens', () => {
  it('spends a refresh token once, however many requests need it at the same time', async () => {
    calls = 0;
    const results = await Promise.all(Array.from({ length: 5 }, () => session.refreshTokens('good-1', {})));
    expect(calls).toBe(1);
    expect(new Set(results.map((r) => r?.accessToken))).toEqual(new Set(['access-for-good-1']));
    // A request still carrying the old cookie a moment later gets the same pair, not a replay.
    expect((await session.refreshTokens('good-1', {}))?.refreshToken).toBe('next-good-1');
    expect(calls).toBe(1);
  });

  it('gives null when the API refuses, and asks again for another token', async () => {
    calls = 0;
    expect(await session.refreshTokens('revoked', {})).toBeNull();
    expect(await session.refreshTokens('good-2', {})).not.toBeNull();
    expect(calls).toBe(2);
  });
});

describe('request checks', () => {
  const request = (headers: Record<string, string>) =>
    new NextRequest('http://console.test/api/session', { method: 'POST', headers });

  it('accepts same-origin calls and refuses cross-site ones', () => {
    expect(session.isSameOrigin(request({ host: 'console.test', origin: 'http://console.test' }))).toBe(true);
    expect(session.isSameOrigin(request({ host: 'console.test', origin: 'https://evil.example' }))).toBe(
      false,
    );
    expect(session.isSameOrigin(request({ host: 'console.test', origin: 'null' }))).toBe(false);
    expect(session.isSameOrigin(request({ host: 'console.test', 'sec-fetch-site': 'cross-site' }))).toBe(
      false,
    );
    expect(session.isSameOrigin(request({ host: 'console.test' }))).toBe(true); // curl, scripts
  });

  it('forwards only the nearest client address for sign-in throttling', () => {
    expect(session.forwardedFor(request({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' }))).toEqual({
      'x-forwarded-for': '10.0.0.1',
    });
    expect(session.forwardedFor(request({}))).toEqual({});
  });
});
