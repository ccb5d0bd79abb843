import { createActor, type SignedActor } from '@music/api-router/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from '../testing/harness';
import { startTestApi, type TestApi } from '../testing/harness';
import {
  codeOf,
  errorShapeOk,
  insertArtistRow,
  insertPlaylistRow,
  insertSongRow,
  rawRequest,
  type TrpcClient,
  tokens,
  trpcOf,
  watchWrites,
  writeCount,
} from './support';

/**
 * Hand-picked hostile requests, the kinds that break HTTP adapters on a Node stack: NUL
 * characters (PostgreSQL refuses them in text), invalid UTF-8, huge and negative numbers, SQL
 * and LIKE metacharacters, 5,000-deep JSON (a recursive parser or validator overflows its
 * stack), empty and truncated bodies, wrong content types, bodies over 1 MiB, headers over
 * 16 KiB, slow clients. Never a 5xx; the status each transport answers today is pinned on
 * /v1 and on /trpc; and refused requests write nothing.
 * hostile-properties.test.ts throws random ones at every operation.
 */

let api: TestApi;
let trpc: TrpcClient;
let user: SignedActor;
let admin: SignedActor;
let artistId: string;
let songId: string;
let playlistId: string;

beforeAll(async () => {
  api = await startTestApi();
  trpc = trpcOf(api);
  const db = api.database.db;
  await watchWrites(db);
  [user, admin] = await Promise.all([createActor(db, 'user', tokens), createActor(db, 'admin', tokens)]);
  artistId = await insertArtistRow(db);
  songId = await insertSongRow(db, [artistId]);
  playlistId = await insertPlaylistRow(db, user.user.id, { songIds: [songId] });
});
afterAll(() => api?.close());

const json = { 'content-type': 'application/json' };

/** A 4xx in the transport's error shape, that wrote nothing. */
async function refused(
  res: Response | Promise<Response>,
  status: number,
  label: string,
  transport: 'v1' | 'trpc' = 'v1',
) {
  const before = await writeCount(api.database.db);
  const answer = await res;
  expect(answer.status, `${label}: ${answer.text.slice(0, 200)}`).toBe(status);
  expect(errorShapeOk(transport, answer), `${label}: error shape ${answer.text.slice(0, 200)}`).toBe(true);
  expect(answer.text).not.toMatch(/at [\w.<>]+ \(|node_modules|SQLSTATE|syntax error|violates/);
  expect(await writeCount(api.database.db), `${label} wrote rows`).toBe(before);
  return answer;
}

describe('bodies', () => {
  it('refuses bodies over 1 MiB with 413 before authenticating, declared or chunked, on both transports', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    for (const token of [user.token, undefined]) {
      const res = await refused(
        api.request('POST', '/playlists', { token, rawBody: big, headers: json }),
        413,
        `v1 declared ${token ? 'with' : 'without'} token`,
      );
      expect(codeOf(res)).toBe('PAYLOAD_TOO_LARGE');
    }
    // Chunked: no Content-Length, the limit must still hold while reading.
    const chunked = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 18; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)));
        controller.close();
      },
    });
    const streamed = await fetch(`${api.url}/playlists`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${user.token}` },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await refused(
      trpc.request('POST', '/playlists.create', { token: user.token, rawBody: big, headers: json }),
      413,
      'trpc',
      'trpc',
    );
    await refused(
      trpc.request('POST', '/auth.login', { rawBody: big, headers: json }),
      413,
      'trpc login',
      'trpc',
    );
    // Just under the limit is read and judged on its content.
    const under = JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 100) });
    await refused(
      api.request('POST', '/playlists', { token: user.token, rawBody: under, headers: json }),
      422,
      'under',
    );
  });

  it('answers empty, truncated and non-object bodies with 400 on /v1; on /trpc 400 unparsed, 422 not an object', async () => {
    // /trpc parses first and validates after: what is not JSON is a 400, JSON of the wrong shape a 422.
    const bodies: Array<[string, number]> = [
      ['', 400],
      [' ', 400],
      ['{', 400],
      ['{"name":"x"', 400],
      ['{"name":"x",}', 400],
      ['null', 422],
      ['[]', 422],
      ['"name"', 422],
      ['123', 422],
      ['true', 422],
      ['{"name":"x"}{"name":"y"}', 400],
      ['\u0000', 400],
      ['{name:"x"}', 400],
      ["{'name':'x'}", 400],
    ];
    for (const [rawBody, trpcStatus] of bodies) {
      await refused(
        api.request('POST', '/playlists', { token: user.token, rawBody, headers: json }),
        400,
        `v1 ${JSON.stringify(rawBody)}`,
      );
      await refused(
        trpc.request('POST', '/playlists.create', { token: user.token, rawBody, headers: json }),
        trpcStatus,
        `trpc ${JSON.stringify(rawBody)}`,
        'trpc',
      );
    }
    // The order of checks: no token beats a broken body.
    await refused(api.request('POST', '/playlists', { rawBody: '{', headers: json }), 401, 'no token');
  });

  it('takes a request with neither Content-Length nor Transfer-Encoding as bodiless, and keeps the connection in step', async () => {
    // HTTP/1.1 (RFC 9112, 6.3): such a request has no body. A POST that needs one is a 400, and
    // the request after it on the same connection is read from the right place.
    const before = await writeCount(api.database.db);
    const answer = await rawRequest(
      api.url,
      `POST /v1/playlists HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.token}\r\nContent-Type: application/json\r\n\r\n` +
        'GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('"code":"BAD_REQUEST"');
    expect(answer.text).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"status":"ok"/);
    expect(await writeCount(api.database.db)).toBe(before);
  });

  it('answers wrong content types with 400 on both transports', async () => {
    const body = JSON.stringify({ name: 'typed' });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/jsonx',
      'json',
      '*/*',
    ]) {
      await refused(
        api.request('POST', '/playlists', {
          token: user.token,
          rawBody: body,
          headers: { 'content-type': type },
        }),
        400,
        `v1 ${type}`,
      );
      const viaTrpc = trpc.request('POST', '/playlists.create', {
        token: user.token,
        rawBody: body,
        headers: { 'content-type': type },
      });
      // tRPC reads any type starting with application/json as JSON: the playlist is created (200).
      if (type === 'application/jsonx') expect((await viaTrpc).status, `trpc ${type}`).toBeLessThan(500);
      else await refused(viaTrpc, 400, `trpc ${type}`, 'trpc');
    }
    // JSON with a charset or a +json suffix is JSON.
    for (const type of [
      'application/json; charset=utf-8',
      'application/merge-patch+json',
      'APPLICATION/JSON',
    ]) {
      const res = await api.request('POST', '/playlists', {
        token: user.token,
        rawBody: body,
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(201);
    }
  });

  it('refuses NUL and other control characters in text with 422, never a database error', async () => {
    for (const name of ['a\u0000b', '\u0000', 'x\u001b[31m', 'a\u007f']) {
      const v1 = await refused(
        api.request('POST', '/playlists', { token: user.token, body: { name } }),
        422,
        `v1 ${JSON.stringify(name)}`,
      );
      expect((v1.body as { errors: unknown }).errors).toEqual([
        { field: 'name', message: expect.any(String) },
      ]);
      await refused(
        trpc.call('playlists.create', { name }, user.token),
        422,
        `trpc ${JSON.stringify(name)}`,
        'trpc',
      );
    }
    await refused(
      api.request('POST', '/playlists', { token: user.token, body: { name: 'ok', description: 'a\u0000b' } }),
      422,
      'description',
    );
    await refused(
      api.request('POST', '/auth/login', { body: { email: 'a\u0000@example.com', password: 'x\u0000' } }),
      422,
      'login',
    );
    // A password is hashed, never stored: NUL is just another character in it, not a terminator.
    const email = `nul-${Date.now()}@example.com`;
    const signUp = await api.request('POST', '/users', {
      body: { username: 'n', email, password: 'pass\u0000word' },
    });
    expect(signUp.status).toBe(201);
    await refused(
      api.request('POST', '/auth/login', { body: { email, password: 'pass' } }),
      401,
      'truncated',
    );
    expect(
      (await api.request('POST', '/auth/login', { body: { email, password: 'pass\u0000word' } })).status,
    ).toBe(200);
    // In a query string: 400; in a path id: 404.
    await refused(api.request('GET', '/songs?search=%00', { token: user.token }), 400, 'query');
    await refused(api.request('GET', '/songs?genre=a%00b', { token: user.token }), 400, 'genre');
    await refused(api.request('GET', '/songs/%00', { token: user.token }), 404, 'path');
    await refused(
      api.request('DELETE', `/playlists/${playlistId}/songs/%00`, { token: user.token }),
      404,
      'path 2',
    );
    await refused(trpc.call('songs.get', { songId: '\u0000' }, user.token), 404, 'trpc path', 'trpc');
    await refused(trpc.call('songs.list', { search: '\u0000' }, user.token), 422, 'trpc query', 'trpc');
  });

  it('refuses invalid UTF-8: 400 in a /v1 body, 404 in a path, never 5xx anywhere', async () => {
    const bad = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    await refused(
      api.request('POST', '/playlists', { token: user.token, rawBody: bad, headers: json }),
      400,
      'v1 body',
    );
    const viaTrpc = await trpc.request('POST', '/playlists.create', {
      token: user.token,
      rawBody: bad,
      headers: json,
    });
    expect(viaTrpc.status).toBeLessThan(500);
    await refused(api.request('GET', '/songs/%ff%fe', { token: user.token }), 404, 'path');
    await refused(api.request('GET', '/%c3', { token: user.token }), 404, 'route');
    for (const query of ['search=%ff', 'search=%c3%28', 'genre=%ed%a0%80', 'page=%ff']) {
      const res = await api.request('GET', `/songs?${query}`, { token: user.token });
      expect(res.status, query).toBeLessThan(500);
    }
    // A path that is not even valid percent-encoding.
    await refused(api.request('GET', '/songs/%zz', { token: user.token }), 404, 'bad escape');
    await refused(api.request('GET', '/songs/%', { token: user.token }), 404, 'lone percent');
  });

  it('refuses 5,000-deep (and 150,000-deep) JSON with a 400 or 422 on /v1, a 422 on /trpc', async () => {
    for (const depth of [5_000, 150_000]) {
      const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      await refused(
        api.request('POST', '/playlists', { token: user.token, rawBody: arrays, headers: json }),
        400,
        `v1 arrays ${depth}`,
      );
      await refused(
        api.request('POST', '/playlists', { token: user.token, rawBody: objects, headers: json }),
        422,
        `v1 objects ${depth}`,
      );
      await refused(
        api.request('POST', '/playlists', {
          token: user.token,
          rawBody: `{"name":${arrays}}`,
          headers: json,
        }),
        422,
        `v1 in a field ${depth}`,
      );
      await refused(
        api.request('PATCH', `/songs/${songId}`, {
          token: admin.token,
          rawBody: `{"artistIds":${arrays}}`,
          headers: json,
        }),
        422,
        `v1 in an array field ${depth}`,
      );
      for (const rawBody of [arrays, objects, `{"name":${arrays}}`]) {
        await refused(
          trpc.request('POST', '/playlists.create', { token: user.token, rawBody, headers: json }),
          422,
          `trpc ${depth}`,
          'trpc',
        );
      }
    }
    // In a query string the header limit comes first: 2,000 levels still fit in 16 KiB.
    const deepQuery = encodeURIComponent(`{"search":${'['.repeat(2_000)}${']'.repeat(2_000)}}`);
    await refused(
      trpc.request('GET', `/songs.list?input=${deepQuery}`, { token: user.token }),
      422,
      'trpc query',
      'trpc',
    );
  });

  it('refuses prototype-polluting keys as unknown fields, and pollutes nothing', async () => {
    for (const rawBody of [
      '{"name":"p","__proto__":{"isAdmin":true}}',
      '{"name":"p","constructor":{"prototype":{"isAdmin":true}}}',
      '{"title":"t","duration":1,"__proto__":{"role":"admin"}}',
    ]) {
      await refused(
        api.request('POST', '/playlists', { token: user.token, rawBody, headers: json }),
        422,
        `v1 ${rawBody}`,
      );
      await refused(
        trpc.request('POST', '/playlists.create', { token: user.token, rawBody, headers: json }),
        422,
        'trpc',
        'trpc',
      );
    }
    const res = await api.request('PUT', `/users/${user.user.id}`, {
      token: user.token,
      rawBody: `{"username":"u","email":"${user.user.email}","password":"password-1","__proto__":{"role":"admin"}}`,
      headers: json,
    });
    expect(res.status).toBe(422);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
  it('bounds a 422: at most 100 field errors, long field names cut short', async () => {
    const body: Record<string, unknown> = { name: 'p' };
    for (let i = 0; i < 500; i++) body[`unknown${i}`] = i;
    body['k'.repeat(5_000)] = 1;
    const res = await api.request('POST', '/playlists', { token: user.token, body });
    expect(res.status).toBe(422);
    const errors = (res.body as { errors: Array<{ field: string }> }).errors;
    expect(errors).toHaveLength(100);
    expect(Math.max(...errors.map((e) => e.field.length))).toBeLessThanOrEqual(200);
    expect(res.text.length).toBeLessThan(20_000);
  });
});

describe('numbers and query strings', () => {
  it('refuses huge, fractional and negative numbers in bodies with 422', async () => {
    for (const [field, value] of [
      ['duration', '1e400'],
      ['duration', '1e308'],
      ['duration', '-1'],
      ['duration', '0'],
      ['duration', '86401'],
      ['duration', '1.5'],
      ['duration', '9007199254740993'],
      ['duration', '"120"'],
      ['releaseYear', '99999999999999999999'],
      ['releaseYear', '-2147483649'],
      ['releaseYear', '2147483648'],
      ['releaseYear', '999'],
    ] as const) {
      const rawBody =
        field === 'duration'
          ? `{"title":"n","duration":${value}}`
          : `{"title":"n","duration":120,"${field}":${value}}`;
      const res = await refused(
        api.request('POST', '/songs', { token: admin.token, rawBody, headers: json }),
        422,
        `${field}=${value}`,
      );
      const errors = (res.body as { errors: Array<{ field: string }> }).errors;
      expect(new Set(errors.map((e) => e.field))).toEqual(new Set([field]));
      await refused(
        trpc.request('POST', '/songs.create', { token: admin.token, rawBody, headers: json }),
        422,
        `trpc ${field}=${value}`,
        'trpc',
      );
    }
  });

  it('answers malformed, negative and out-of-range paging with 400 on /v1 and 422 on /trpc', async () => {
    const queries = [
      'limit=-1',
      'limit=0',
      'limit=101',
      'page=0',
      'page=-5',
      'page=-0',
      'page=1.5',
      'page=1e3',
      'limit=0x10',
      'limit=%205',
      'limit=5abc',
      'limit=',
      'page=',
      'page=99999999999999999999',
      'page=1&page=2',
      'limit[]=5',
      'page=Infinity',
      'page=NaN',
    ];
    for (const list of [
      '/songs',
      '/artists',
      '/playlists',
      '/users',
      `/artists/${artistId}/songs`,
      `/playlists/${playlistId}/songs`,
    ]) {
      for (const query of queries) {
        if (query === 'limit[]=5') {
          // An unknown parameter name: ignored, like any other unknown query parameter.
          expect((await api.request('GET', `${list}?${query}`, { token: admin.token })).status).toBe(200);
          continue;
        }
        await refused(
          api.request('GET', `${list}?${query}`, { token: admin.token }),
          400,
          `${list}?${query}`,
        );
      }
    }
    for (const input of [
      { limit: -1 },
      { page: 0 },
      { limit: 1e308 },
      { page: 2 ** 53 + 2 },
      { limit: '5' },
      { page: null },
      { limit: [5] },
    ]) {
      await refused(trpc.call('songs.list', input, user.token), 422, `trpc ${JSON.stringify(input)}`, 'trpc');
    }
  });

  it('answers a page far past the end with an empty page and the true total', async () => {
    for (const page of ['9999999999999999', '92233720368547758']) {
      const res = await api.request('GET', `/songs?page=${page}&limit=100`, { token: user.token });
      expect(res.status, page).toBeLessThan(500);
      if (res.status === 200) {
        expect(res.body.data).toEqual([]);
        expect(res.body.pagination.total).toBeGreaterThan(0);
      }
    }
    const res = await trpc.call('songs.list', { page: Number.MAX_SAFE_INTEGER, limit: 100 }, user.token);
    expect(res.status).toBeLessThan(500);
  });

  it('treats SQL and LIKE metacharacters in search as literal text', async () => {
    const tag = `m${Date.now().toString(36)}`;
    const titles = [
      `${tag} 100% pure`,
      `${tag} snake_case`,
      `${tag} back\\slash`,
      `${tag} plain`,
      `${tag} it's`,
    ];
    for (const title of titles) {
      expect(
        (
          await api.request('POST', '/songs', {
            token: admin.token,
            body: { title, duration: 100, genre: '%' },
          })
        ).status,
      ).toBe(201);
    }
    const search = async (text: string) => {
      const res = await api.request('GET', `/songs?limit=100&search=${encodeURIComponent(text)}`, {
        token: user.token,
      });
      expect(res.status, text).toBe(200);
      return (res.body.data as Array<{ title: string }>)
        .map((s) => s.title)
        .filter((t) => t.startsWith(tag))
        .sort();
    };
    expect(await search('%')).toEqual([`${tag} 100% pure`]);
    expect(await search('_')).toEqual([`${tag} snake_case`]);
    expect(await search('\\')).toEqual([`${tag} back\\slash`]);
    expect(await search("'")).toEqual([`${tag} it's`]);
    expect(await search(`${tag} %`)).toEqual([]);
    expect(await search(`${tag}%plain`)).toEqual([]);
    expect(await search(`${tag} _lain`)).toEqual([]);
    for (const text of [
      "' or 1=1 --",
      "'; drop table songs; --",
      '\\%',
      '%%',
      '[a-z]',
      '.*',
      '$1',
      '\\\\',
      'ʼ',
      '"',
    ]) {
      expect(await search(text), text).toEqual([]);
    }
    // The genre filter is an equality, not a pattern: '%' matches the genre '%' only.
    const genre = await api.request('GET', `/songs?limit=100&genre=${encodeURIComponent('_')}`, {
      token: user.token,
    });
    expect(genre.status).toBe(200);
    expect(genre.body.pagination.total).toBe(0);
    const artists = await api.request('GET', `/artists?search=${encodeURIComponent('%')}`, {
      token: user.token,
    });
    expect(artists.status).toBe(200);
    expect(artists.body.pagination.total).toBe(0);
    expect((await trpc.call('songs.list', { search: '%', limit: 100 }, user.token)).status).toBe(200);
  });
});

describe('paths, methods and headers', () => {
  it('answers odd paths with 404 and odd methods with 405, never 5xx', async () => {
    for (const path of [
      '/songs/..%2f..%2fusers',
      '/songs/%2e%2e',
      '//songs',
      '/songs//',
      `/songs/${'a'.repeat(8_000)}`,
      `/playlists/${playlistId}/songs/${songId}/extra`,
      '/songs/1;select 1',
      "/users/'%20or%20'1'='1",
    ]) {
      // Not through the harness client: these paths name no documented operation at all.
      const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${admin.token}` } });
      expect([404, 405], path).toContain(res.status);
      expect(await res.json()).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
    for (const method of ['PUT', 'TRACE', 'OPTIONS', 'PROPFIND', 'PURGE', 'CONNECT']) {
      const target = method === 'CONNECT' ? '127.0.0.1:1' : `/v1/songs/${songId}`;
      const res = await rawRequest(
        api.url,
        `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${admin.token}\r\n\r\n`,
      );
      // CONNECT is not served at all: the socket is closed without an answer.
      if (method === 'CONNECT') expect([0, 400]).toContain(res.status);
      else expect(res.status, method).toBeGreaterThanOrEqual(400);
      expect(res.status, method).toBeLessThan(500);
      if (method === 'PUT') expect(res.status).toBe(405);
    }
    const head = await fetch(`${api.url}/songs`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(head.status).toBeLessThan(500);
    const raw = await rawRequest(
      api.url,
      `GET /v1/songs HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \u0000\r\n\r\n`,
    );
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
  });

  it('answers headers over 16 KiB with 431 on both transports', async () => {
    for (const path of ['/v1/songs', '/trpc/songs.list', '/v1/health']) {
      const res = await rawRequest(
        api.url,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
      );
      expect(res.status, path).toBe(431);
    }
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(40)}\r\n`).join('');
    const res = await rawRequest(
      api.url,
      `GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${many}\r\n`,
    );
    expect(res.status).toBe(431);
    // Still serving.
    expect((await api.request('GET', '/health')).status).toBe(200);
  });

  it('cuts off a client that sends its headers too slowly (408), and keeps serving others', async () => {
    const server = api.server.server;
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
      const slowHeaders = rawRequest(api.url, lines, { delayMs: 200, timeoutMs: 8_000 });
      const body = 'x'.repeat(100);
      const slowBody = rawRequest(
        api.url,
        [
          `POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
          ...body.split(''),
        ],
        { delayMs: 100, timeoutMs: 8_000 },
      );
      // Meanwhile, others are served.
      expect((await api.request('GET', '/health')).status).toBe(200);
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
