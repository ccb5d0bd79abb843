import { describe, expect, it } from 'vitest';
import { useHostileApi } from './hostile-rig';
import { rawRequest } from './support';

/**
 * Hostile requests on the wire, hand-picked: odd paths and methods, headers over 16 KiB, and
 * clients that send their headers or body too slowly. Never a 5xx, and others keep being served.
 */

const { h } = useHostileApi();

describe('paths, methods and headers', () => {
  it('answers odd paths with 404, odd methods with 405 (OPTIONS with 204), never 5xx', async () => {
    for (const path of [
      '/songs/..%2f..%2fusers',
      '/songs/%2e%2e',
      '//songs',
      '/songs//',
      `/songs/${'a'.repeat(8_000)}`,
      `/playlists/${h.playlistId}/songs/${h.songId}/extra`,
      '/songs/1;select 1',
      "/users/'%20or%20'1'='1",
    ]) {
      // Not through the harness client: these paths name no documented operation at all.
      const res = await fetch(`${h.api.url}${path}`, {
        headers: { authorization: `Bearer ${h.admin.token}` },
      });
      expect([404, 405], path).toContain(res.status);
      expect(await res.json()).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
    for (const method of ['PUT', 'TRACE', 'OPTIONS', 'PROPFIND', 'PURGE', 'CONNECT']) {
      const target = method === 'CONNECT' ? '127.0.0.1:1' : `/v1/songs/${h.songId}`;
      const res = await rawRequest(
        h.api.url,
        `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${h.admin.token}\r\n\r\n`,
      );
      // CONNECT is not served at all: the socket is closed without an answer.
      if (method === 'CONNECT') expect([0, 400]).toContain(res.status);
      // OPTIONS is served on every known route (version 1.1).
      else if (method === 'OPTIONS') expect(res.status).toBe(204);
      else expect(res.status, method).toBeGreaterThanOrEqual(400);
      expect(res.status, method).toBeLessThan(500);
      if (method === 'PUT') expect(res.status).toBe(405);
    }
    const head = await fetch(`${h.api.url}/songs`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${h.user.token}` },
    });
    expect(head.status).toBeLessThan(500);
    const raw = await rawRequest(
      h.api.url,
      `GET /v1/songs HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \u0000\r\n\r\n`,
    );
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
  });

  it('answers headers over 16 KiB with 431 on both transports', async () => {
    for (const path of ['/v1/songs', '/trpc/songs.list', '/v1/health']) {
      const res = await rawRequest(
        h.api.url,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
      );
      expect(res.status, path).toBe(431);
    }
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(40)}\r\n`).join('');
    const res = await rawRequest(
      h.api.url,
      `GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${many}\r\n`,
    );
    expect(res.status).toBe(431);
    // Still serving.
    expect((await h.api.request('GET', '/health')).status).toBe(200);
  });

  it('cuts off a client that sends its headers too slowly (408), and keeps serving others', async () => {
    const server = h.api.server.server;
    expect(server.headersTimeout).toBeLessThanOrEqual(10_000);
    expect(server.requestTimeout).toBeLessThanOrEqual(30_000);
    const saved = { headersTimeout: server.headersTimeout, requestTimeout: server.requestTimeout };
    server.headersTimeout = 1_000;
    server.requestTimeout = 2_000;
    try {
      const lines = [
        'GET /v1/health HTTP/1.1\r\n',
        'Host: x\r\n',
        ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: y\r\n`),
      ];
      const slowHeaders = rawRequest(h.api.url, lines, { delayMs: 200, timeoutMs: 8_000 });
      const body = 'x'.repeat(100);
      const slowBody = rawRequest(
        h.api.url,
        [
          `POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
          ...body.split(''),
        ],
        { delayMs: 100, timeoutMs: 8_000 },
      );
      // Meanwhile, others are served.
      expect((await h.api.request('GET', '/health')).status).toBe(200);
      const [headersResult, bodyResult] = await Promise.all([slowHeaders, slowBody]);
      expect(headersResult.status).toBe(408);
      expect(headersResult.ms).toBeLessThan(4_000);
      expect(bodyResult.status).toBe(408);
      expect(bodyResult.ms).toBeLessThan(6_000);
    } finally {
      Object.assign(server, saved);
    }
  });
});
