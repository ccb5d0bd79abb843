import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../../apps/api/test/support/harness';
import type { SessionTokens } from '../src/index';
import { clientOf, refusedToken, type Sent, sessionOf, startApi } from './support';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.close());

const refreshes = (sent: Sent[]) => sent.filter((r) => r.method === 'POST' && r.path === '/v1/auth/refresh');

describe('a session', () => {
  it('signs in with email and password, and its calls carry the access token', async () => {
    const user = await api.signUp();
    const sessions: Array<SessionTokens | undefined> = [];
    const { client, sent } = clientOf(api, { onSession: (s) => sessions.push(s) });
    const signedIn = await client.signIn({ email: user.email, password: user.password });
    expect(signedIn.id).toBe(user.id);
    expect(sessions).toHaveLength(1);
    // The sign-in itself carries no token.
    expect(sent[0]?.headers.get('Authorization')).toBeNull();

    const { data } = await client.GET('/auth/me');
    expect(data?.id).toBe(user.id);
    expect(sent.at(-1)?.headers.get('Authorization')).toBe(`Bearer ${client.session?.accessToken}`);

    await client.signOut();
    expect(client.session).toBeUndefined();
    expect(sessions.at(-1)).toBeUndefined();
    const after = await client.GET('/auth/me');
    expect(after.response.status).toBe(401);
  });

  it('a wrong password is a MusicApiError with the API code', async () => {
    const user = await api.signUp();
    const { client } = clientOf(api);
    const failure = await client.signIn({ email: user.email, password: 'not-the-password' }).catch((e) => e);
    expect(failure).toMatchObject({ name: 'MusicApiError', status: 401, code: 'UNAUTHORIZED' });
    expect(failure.requestId).toEqual(expect.any(String));
  });

  it('renews a refused access token with the refresh token, and sends the call again', async () => {
    const user = await api.signUp();
    const sessions: Array<SessionTokens | undefined> = [];
    // A forged signature: refused as an expired token is (401, error="invalid_token").
    const { client: stale, sent: staleSent } = sessionOf(
      api,
      { ...user, token: refusedToken(user.token) },
      { onSession: (s) => sessions.push(s) },
    );
    const { data, response } = await stale.GET('/auth/me');
    expect(response.status).toBe(200);
    expect(data?.id).toBe(user.id);
    expect(staleSent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v1/auth/me 401',
      'POST /v1/auth/refresh 200',
      'GET /v1/auth/me 200',
    ]);
    // The single-use refresh token was rotated, and the application was told to keep the new one.
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.refreshToken).not.toBe(user.refreshToken);
    expect(stale.session).toEqual(sessions[0]);
  });

  it('renews once for every call that got a 401 meanwhile', async () => {
    const user = await api.signUp();
    const { client, sent } = sessionOf(api, { ...user, token: refusedToken(user.token) });
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.GET('/auth/me')));
    expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(refreshes(sent)).toHaveLength(1);
    expect(sent.filter((r) => r.status === 401)).toHaveLength(6);
  });

  it('ends the session when the refresh token is refused too, and answers the 401', async () => {
    const user = await api.signUp();
    // Signing out elsewhere revokes the session: both tokens are refused from then on.
    await api.request('POST', '/auth/logout', { token: user.token });
    const sessions: Array<SessionTokens | undefined> = [];
    const { client, sent } = sessionOf(api, user, { onSession: (s) => sessions.push(s) });
    const { error, response } = await client.GET('/auth/me');
    expect(response.status).toBe(401);
    expect(error?.code).toBe('UNAUTHORIZED');
    expect(refreshes(sent).map((r) => r.status)).toEqual([401]);
    expect(client.session).toBeUndefined();
    expect(sessions).toEqual([undefined]);
    // No session: the next call goes out without a token, and is not renewed.
    await client.GET('/auth/me');
    expect(sent.at(-1)?.headers.get('Authorization')).toBeNull();
    expect(refreshes(sent)).toHaveLength(1);
  });
});

describe('an API key', () => {
  it('is sent as a Bearer token as given, acts as its owner within its scopes, and is never renewed', async () => {
    const owner = await api.signUp();
    const made = await api.request('POST', '/api-keys', {
      token: owner.token,
      body: { name: 'sdk test', scopes: ['catalogue:read'] },
    });
    const key = made.body.token as string;
    const { client, sent } = clientOf(api, { apiKey: key });
    const me = await client.GET('/auth/me');
    expect(sent[0]?.headers.get('Authorization')).toBe(`Bearer ${key}`);
    expect(me.data?.id).toBe(owner.id);
    // Outside its scopes: a 403 naming the scope, which no refresh could change.
    const refused = await client.POST('/playlists', { body: { name: 'Not mine to make' } });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.code).toBe('FORBIDDEN');
    expect(refused.response.headers.get('WWW-Authenticate')).toContain('scope="playlists:write"');
    // Deleted: refused as any unknown token is, and still never renewed.
    await api.request('DELETE', `/api-keys/${made.body.id}`, { token: owner.token });
    const gone = await client.GET('/auth/me');
    expect(gone.response.status).toBe(401);
    expect(gone.response.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    expect(refreshes(sent)).toHaveLength(0);
    expect(client.session).toBeUndefined();
  });
});
