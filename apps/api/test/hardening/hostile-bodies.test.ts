import { describe, expect, it } from 'vitest';
import { json, useHostileApi } from './hostile-rig';
import { codeOf, rawRequest, writeCount } from './support';

/**
 * Hostile bodies, hand-picked: over 1 MiB (declared or chunked), empty, truncated or not an
 * object, without a length, of the wrong content type, with prototype-polluting keys, with
 * hundreds of unknown fields. Never a 5xx; the status each transport answers today is pinned;
 * refused requests write nothing. hostile-properties.test.ts throws random ones at every operation.
 */

const { h, refused } = useHostileApi();

describe('bodies', () => {
  it('refuses bodies over 1 MiB with 413 before authenticating, declared or chunked, on both transports', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    for (const token of [h.user.token, undefined]) {
      const res = await refused(
        h.api.request('POST', '/playlists', { token, rawBody: big, headers: json }),
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
    const streamed = await fetch(`${h.api.url}/playlists`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${h.user.token}` },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await refused(
      h.trpc.request('POST', '/playlists.create', { token: h.user.token, rawBody: big, headers: json }),
      413,
      'trpc',
      'trpc',
    );
    await refused(
      h.trpc.request('POST', '/auth.login', { rawBody: big, headers: json }),
      413,
      'trpc login',
      'trpc',
    );
    // Just under the limit is read and judged on its content.
    const under = JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 100) });
    await refused(
      h.api.request('POST', '/playlists', { token: h.user.token, rawBody: under, headers: json }),
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
        h.api.request('POST', '/playlists', { token: h.user.token, rawBody, headers: json }),
        400,
        `v1 ${JSON.stringify(rawBody)}`,
      );
      await refused(
        h.trpc.request('POST', '/playlists.create', { token: h.user.token, rawBody, headers: json }),
        trpcStatus,
        `trpc ${JSON.stringify(rawBody)}`,
        'trpc',
      );
    }
    // The order of checks: no token beats a broken body.
    await refused(h.api.request('POST', '/playlists', { rawBody: '{', headers: json }), 401, 'no token');
  });

  it('takes a request with neither Content-Length nor Transfer-Encoding as bodiless, and keeps the connection in step', async () => {
    // HTTP/1.1 (RFC 9112, 6.3): such a request has no body. A POST that needs one is a 400, and
    // the request after it on the same connection is read from the right place.
    const before = await writeCount(h.api.database.db);
    const answer = await rawRequest(
      h.api.url,
      `POST /v1/playlists HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.user.token}\r\nContent-Type: application/json\r\n\r\n` +
        'GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('"code":"BAD_REQUEST"');
    expect(answer.text).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"status":"ok"/);
    expect(await writeCount(h.api.database.db)).toBe(before);
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
        h.api.request('POST', '/playlists', {
          token: h.user.token,
          rawBody: body,
          headers: { 'content-type': type },
        }),
        400,
        `v1 ${type}`,
      );
      const viaTrpc = h.trpc.request('POST', '/playlists.create', {
        token: h.user.token,
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
      const res = await h.api.request('POST', '/playlists', {
        token: h.user.token,
        rawBody: body,
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(201);
    }
  });

  it('refuses prototype-polluting keys as unknown fields, and pollutes nothing', async () => {
    for (const rawBody of [
      '{"name":"p","__proto__":{"isAdmin":true}}',
      '{"name":"p","constructor":{"prototype":{"isAdmin":true}}}',
      '{"title":"t","duration":1,"__proto__":{"role":"admin"}}',
    ]) {
      await refused(
        h.api.request('POST', '/playlists', { token: h.user.token, rawBody, headers: json }),
        422,
        `v1 ${rawBody}`,
      );
      await refused(
        h.trpc.request('POST', '/playlists.create', { token: h.user.token, rawBody, headers: json }),
        422,
        'trpc',
        'trpc',
      );
    }
    const res = await h.api.request('PUT', `/users/${h.user.user.id}`, {
      token: h.user.token,
      rawBody: `{"username":"u","email":"${h.user.user.email}","password":"password-1","__proto__":{"role":"admin"}}`,
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
    const res = await h.api.request('POST', '/playlists', { token: h.user.token, body });
    expect(res.status).toBe(422);
    const errors = (res.body as { errors: Array<{ field: string }> }).errors;
    expect(errors).toHaveLength(100);
    expect(Math.max(...errors.map((e) => e.field.length))).toBeLessThanOrEqual(200);
    expect(res.text.length).toBeLessThan(20_000);
  });
});
