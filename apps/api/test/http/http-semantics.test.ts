import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../src/http/trust-proxy';
import { startTestApi } from '../support/harness';

/**
 * Version 1.1's HTTP semantics on `/v1`, from outside: HEAD and OPTIONS, the 401 challenge,
 * compression, pagination links, conditional GETs and CORS. Raw `fetch`/`http` here: these are about headers the test must see as sent.
 */
const ORIGIN = 'https://app.example.com';
const api = await startTestApi({ corsOrigins: [ORIGIN] });
afterAll(() => api.close());
const admin = await api.signUp('admin');
const auth = { authorization: `Bearer ${admin.token}` };
const send = (path: string, init: RequestInit = {}) => fetch(`${api.url}${path}`, init);

/** The raw answer, bytes as sent (fetch would decompress them). */
function raw(path: string, headers: Record<string, string>) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = httpRequest(`${api.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HEAD and OPTIONS', () => {
  it('answers HEAD like GET without a body, and Allow lists HEAD and OPTIONS', async () => {
    const get = await send('/songs', { headers: auth });
    const head = await send('/songs', { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('link')).toBe(get.headers.get('link'));
    const unauthorised = await send('/songs', { method: 'HEAD' });
    expect(unauthorised.status).toBe(401);
    const health = await send('/health', { method: 'HEAD' });
    expect(health.status).toBe(200);
    const wrong = await send('/songs', { method: 'PUT', headers: auth });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('answers OPTIONS on any known route with 204 and Allow, without a caller', async () => {
    const songs = await send('/songs/0198a7c2-1234-7abc-8def-0123456789ab', { method: 'OPTIONS' });
    expect(songs.status).toBe(204);
    expect(songs.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    expect(await songs.text()).toBe('');
    const health = await send('/health', { method: 'OPTIONS' });
    expect([health.status, health.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    expect((await send('/nowhere', { method: 'OPTIONS' })).status).toBe(404);
  });
});

describe('the 401 challenge (RFC 6750)', () => {
  it('names the realm, and says invalid_token when a token was presented and refused', async () => {
    const none = await send('/songs');
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="music"');
    const bad = await send('/songs', { headers: { authorization: 'Bearer not-a-token' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="music", error="invalid_token"');
  });

  it('refuses a presented invalid token also where anonymous callers are served (POST /users)', async () => {
    const response = await send('/users', {
      method: 'POST',
      headers: { authorization: 'Bearer expired.or.forged', 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'x', email: 'invalid-token@example.com', password: 'long enough 1' }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    const login = await send('/users?page=1', { headers: auth });
    expect((login as Response).status).toBe(200);
  });
});

describe('compression', () => {
  it('compresses answers over 1 KiB as the client allows, with Vary: Accept-Encoding', async () => {
    const identity = await raw('/openapi.json', {});
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toContain('Accept-Encoding');
    const gzip = await raw('/openapi.json', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length);
    const br = await raw('/openapi.json', { 'accept-encoding': 'gzip;q=0.5, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(br.body.length).toBeLessThan(identity.body.length / 4);
  });

  it('ignores codings it does not know, refused ones and made-up syntax, and leaves small answers alone', async () => {
    for (const header of ['x-made-up', 'gzip;q=0, br;q=0', ';;;,,=q', 'br;q=banana']) {
      const answer = await raw('/openapi.json', { 'accept-encoding': header });
      expect([header, answer.status, answer.headers['content-encoding']]).toEqual([header, 200, undefined]);
    }
    const small = await raw('/health/live', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ status: 'ok' });
  });
});

describe('pagination links (RFC 8288)', () => {
  it('gives first, prev, next and last as full URLs keeping the other query parameters', async () => {
    for (let i = 0; i < 5; i++) {
      await send('/artists', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Linked ${i}` }),
      });
    }
    const page = await send('/artists?limit=2&page=2&search=Linked', { headers: auth });
    const link = page.headers.get('link') ?? '';
    // `page` keeps its place among the parameters; it is added last when the request had none.
    const at = (n: number) => `<${api.url}/artists?limit=2&page=${n}&search=Linked>`;
    expect(link).toBe(
      `${at(1)}; rel="first", ${at(1)}; rel="prev", ${at(3)}; rel="next", ${at(3)}; rel="last"`,
    );
    const first = await send('/artists?limit=2&search=Linked', { headers: auth });
    expect(first.headers.get('link')).not.toContain('rel="prev"');
    const empty = await send('/artists?search=nothing-matches-this', { headers: auth });
    expect(empty.headers.get('link')).toBe(
      `<${api.url}/artists?search=nothing-matches-this&page=1>; rel="first", <${api.url}/artists?search=nothing-matches-this&page=1>; rel="last"`,
    );
  });
  it('uses the scheme a trusted proxy reports, and ignores one sent by anyone else', async () => {
    const behindTls = await send('/artists?limit=1', { headers: { ...auth, 'x-forwarded-proto': 'https' } });
    // The suite's client is on loopback, which TRUST_PROXY=loopback believes.
    expect(behindTls.headers.get('link')).toMatch(
      /^<https:\/\/127\.0\.0\.1:\d+\/v1\/artists\?limit=1&page=1>; rel="first"/,
    );
    const untrusting = await startTestApi({ trustProxy: parseTrustProxy('none') });
    try {
      const direct = await fetch(`${untrusting.url}/artists?limit=1`, {
        headers: {
          authorization: `Bearer ${(await untrusting.signUp()).token}`,
          'x-forwarded-proto': 'https',
        },
      });
      expect(direct.headers.get('link')).toMatch(/^<http:\/\//);
    } finally {
      await untrusting.close();
    }
  });
});

describe('ETags on reads', () => {
  it('tags a record, answers 304 to a matching If-None-Match, 200 to another', async () => {
    const created = await send('/artists', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Tagged' }),
    });
    const etag = created.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const { id } = (await created.json()) as { id: string };
    const get = await send(`/artists/${id}`, { headers: auth });
    expect(get.headers.get('etag')).toBe(etag);
    const fresh = await send(`/artists/${id}`, { headers: { ...auth, 'if-none-match': `"other", ${etag}` } });
    expect([fresh.status, await fresh.text(), fresh.headers.get('etag')]).toEqual([304, '', etag]);
    const weak = await send(`/artists/${id}`, {
      method: 'HEAD',
      headers: { ...auth, 'if-none-match': `W/${etag}` },
    });
    expect(weak.status).toBe(304);
    const stale = await send(`/artists/${id}`, { headers: { ...auth, 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it('answers a malformed If-None-Match or If-Match with 400, and tags the document', async () => {
    const malformed = await send('/songs/0198a7c2-1234-7abc-8def-0123456789ab', {
      headers: { ...auth, 'if-none-match': 'no-quotes' },
    });
    expect([malformed.status, ((await malformed.json()) as { code: string }).code]).toEqual([
      400,
      'BAD_REQUEST',
    ]);
    const ifMatch = await send('/songs/0198a7c2-1234-7abc-8def-0123456789ab', {
      method: 'DELETE',
      headers: { ...auth, 'if-match': '"unterminated' },
    });
    expect(ifMatch.status).toBe(400);
    // Also where the operation takes no input at all (version 1.2).
    for (const header of ['no-quotes', '"unterminated', 'W/']) {
      const me = await send('/auth/me', { headers: { ...auth, 'if-none-match': header } });
      expect(me.status, `/auth/me with If-None-Match ${header}`).toBe(400);
    }
    // A caller the operation refuses still gets its 401 first.
    const anonymous = await send('/auth/me', { headers: { 'if-none-match': 'no-quotes' } });
    expect(anonymous.status).toBe(401);
    const document = await send('/openapi.json');
    const etag = document.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    expect((await send('/openapi.json', { headers: { 'if-none-match': etag } })).status).toBe(304);
    // The document reads the header as every operation does: the same 400, word for word.
    const [onDocument, onOperation] = await Promise.all(
      ['/openapi.json', '/auth/me'].map((path) =>
        send(path, { headers: { ...auth, 'if-none-match': 'no-quotes' } }),
      ),
    );
    expect(onDocument!.status).toBe(400);
    expect(await onDocument!.json()).toEqual(await onOperation!.json());
  });
});

describe('CORS', () => {
  it('allows a listed origin, exposes the headers clients read, and never allows credentials', async () => {
    const answer = await send('/songs', { headers: { ...auth, origin: ORIGIN } });
    expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    expect(answer.headers.get('vary')).toContain('Origin');
    const exposed = answer.headers.get('access-control-expose-headers') ?? '';
    for (const name of [
      'ETag',
      'Location',
      'Link',
      'Retry-After',
      'X-Request-Id',
      'Idempotent-Replayed',
      'RateLimit-Remaining',
      'WWW-Authenticate',
    ]) {
      expect(exposed).toContain(name);
    }
  });

  it('answers a preflight with the route methods and request headers; an unlisted origin gets nothing', async () => {
    const preflight = await send('/playlists/0198a7c2-1234-7abc-8def-0123456789ab', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'PUT' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, X-Request-Id',
    );
    const other = await send('/songs', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(other.status).toBe(204);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('answers preflights on the service routes too (the document and health)', async () => {
    for (const path of ['/openapi.json', '/health']) {
      const preflight = await send(path, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
      });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
      expect(preflight.headers.get('access-control-allow-origin'), path).toBe(ORIGIN);
      expect(preflight.headers.get('access-control-allow-methods'), path).toBe('GET, HEAD, OPTIONS');
    }
  });
});

describe('the reference page', () => {
  it('is served with a Content-Security-Policy and X-Frame-Options: DENY (version 1.2)', async () => {
    for (const path of ['/docs', '/docs/init.js', '/docs/swagger-ui.css']) {
      const page = await send(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('x-frame-options'), path).toBe('DENY');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toMatch(/script-src 'self'(;|$)/);
      expect(csp, path).toContain("default-src 'none'");
    }
    // The page's own script is a file, not inline: the policy needs no 'unsafe-inline' for scripts.
    const html = await (await send('/docs')).text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
  });
});
