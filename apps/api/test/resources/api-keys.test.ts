import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, trpcOf } from '../hardening/support';
import { startTestApi } from '../support/harness';

/**
 * API keys over HTTP, on both transports: the 201 with its token once, the key as a bearer token,
 * the 403 with RFC 6750's insufficient_scope challenge, a budget of its own, a revocation that
 * holds at once on another instance, and the scopes in the served document.
 */
const api = await startTestApi({ RATE_LIMIT_PER_MINUTE: 8 });
const trpc = trpcOf(api);
afterAll(() => api.close());

async function makeKey(token: string, scopes: string[]) {
  const res = await api.request('POST', '/api-keys', { token, body: { name: 'ingest', scopes } });
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string; prefix: string; scopes: string[] };
}

describe('API keys over HTTP', () => {
  it('are made with a 201 showing the token once, and read back without it', async () => {
    const me = await api.signUp();
    const res = await api.request('POST', '/api-keys', {
      token: me.token,
      body: { name: 'Label ingest', scopes: ['catalogue:read', 'catalogue:write'] },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'name',
      'scopes',
      'prefix',
      'createdAt',
      'expiresAt',
      'lastUsedAt',
      'token',
    ]);
    expect(res.body.token).toMatch(/^mc_/);
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const read = await api.request('GET', `/api-keys/${res.body.id}`, { token: me.token });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('token');
    const listed = await api.request('GET', '/api-keys', { token: me.token });
    expect(listed.body.data.map((k: { id: string }) => k.id)).toEqual([res.body.id]);
    const gone = await api.request('DELETE', `/api-keys/${res.body.id}`, { token: me.token });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
  });

  it('answer 403 with WWW-Authenticate insufficient_scope outside their scopes, on both transports', async () => {
    const me = await api.signUp();
    const key = await makeKey(me.token, ['catalogue:read']);
    expect((await api.request('GET', '/songs', { token: key.token })).status).toBe(200);
    const v1 = await api.request('POST', '/playlists', { token: key.token, body: { name: 'Mine' } });
    const rpc = await trpc.call('playlists.create', { name: 'Mine' }, key.token);
    for (const res of [v1, rpc]) {
      expect(res.status).toBe(403);
      expect(codeOf(res)).toBe('FORBIDDEN');
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="music", error="insufficient_scope", scope="playlists:write"',
      );
    }
    const keys = await api.request('GET', '/api-keys', { token: key.token });
    expect(keys.status).toBe(403);
    expect(keys.headers.get('www-authenticate')).toBe('Bearer realm="music", error="insufficient_scope"');
    const me2 = await api.request('GET', '/auth/me', { token: key.token });
    expect(me2.body.id).toBe(me.id);
  });

  it('rename an account through a 1.0 PUT that repeats its password, and never set another', async () => {
    const me = await api.signUp();
    const key = await makeKey(me.token, ['users:write', 'users:read']);
    const put = (password: string) =>
      api.request('PUT', `/users/${me.id}`, {
        token: key.token,
        body: { username: 'Renamed', email: me.email, password },
      });
    expect((await put(me.password)).status).toBe(200);
    expect((await put('another-password-1')).status).toBe(403);
    const login = await api.request('POST', '/auth/login', {
      body: { email: me.email, password: me.password },
    });
    expect(login.status).toBe(200);
  });

  it('have a request budget of their own, apart from their owner’s', async () => {
    const me = await api.signUp();
    const key = await makeKey(me.token, ['catalogue:read']);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++)
      statuses.push((await api.request('GET', '/genres', { token: key.token })).status);
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
    expect(statuses[8]).toBe(429);
    // The owner's session counts on its own budget (it made one request: the key).
    const owner = await api.request('GET', '/genres', { token: me.token });
    expect(owner.status).toBe(200);
    expect(Number(owner.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(5);
  });

  it('are refused at once on every instance once deleted, and show when they were last used', async () => {
    const me = await api.signUp();
    const key = await makeKey(me.token, ['catalogue:read']);
    const sibling = await api.startSibling();
    expect((await sibling.request('GET', '/genres', { token: key.token })).status).toBe(200);
    expect((await api.request('GET', '/songs', { token: key.token })).status).toBe(200);
    const read = await api.request('GET', `/api-keys/${key.id}`, { token: me.token });
    expect(read.body.lastUsedAt).not.toBeNull();
    expect((await api.request('DELETE', `/api-keys/${key.id}`, { token: me.token })).status).toBe(204);
    const after = await sibling.request('GET', '/genres', { token: key.token });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await trpc.call('genres.list', undefined, key.token)).status).toBe(401);
    await sibling.close();
  });

  it('are described in the document: the apiKeyAuth scheme and the scope of each operation', async () => {
    const doc = (await api.request('GET', '/openapi.json')).body;
    expect(doc.components.securitySchemes.apiKeyAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/songs'].post.security).toEqual([
      { bearerAuth: [] },
      { apiKeyAuth: ['catalogue:write'] },
    ]);
    expect(doc.paths['/playlists'].get.security).toEqual([
      { bearerAuth: [] },
      { apiKeyAuth: ['playlists:read'] },
    ]);
    expect(doc.paths['/auth/me'].get.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }]);
    expect(doc.paths['/api-keys'].post.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/users'].post.security).toEqual([
      {},
      { bearerAuth: [] },
      { apiKeyAuth: ['users:write'] },
    ]);
  });
});
