import { findUserById } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { error } from '../support/catalogue';
import { startTestApi } from '../support/harness';

/**
 * Users over HTTP: If-Match (version 1.1), writes that change nothing (8.1), ids in any
 * letter case (8.1), and `search` / `sort` on the list (8.7, 8.8).
 */

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');

const stored = (id: string) => findUserById(api.database.db, id);
const etagOf = async (id: string, token: string) =>
  (await api.request('GET', `/users/${id}`, { token })).headers.get('etag')!;

describe('If-Match on users', () => {
  it('PUT: the current tag or * applies, a stale one is 412 and changes nothing', async () => {
    const user = await api.signUp();
    const body = (username: string) => ({ username, email: user.email, password: user.password });
    const tag = await etagOf(user.id, user.token);
    const ok = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: body('First'),
      headers: { 'if-match': tag },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).not.toBe(tag);
    const row = await stored(user.id);
    const stale = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: body('Lost'),
      headers: { 'if-match': tag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual(error('PRECONDITION_FAILED'));
    expect(await stored(user.id)).toEqual(row);
    const any = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: body('Any'),
      headers: { 'if-match': '*' },
    });
    expect(any.status).toBe(200);
  });

  it('role PUT and DELETE check it too', async () => {
    const user = await api.signUp();
    const tag = await etagOf(user.id, admin.token);
    const path = `/users/${user.id}`;
    const stale = { 'if-match': '"stale"' };
    expect(
      (
        await api.request('PUT', `${path}/role`, {
          token: admin.token,
          body: { role: 'artist' },
          headers: stale,
        })
      ).status,
    ).toBe(412);
    expect((await api.request('DELETE', path, { token: admin.token, headers: stale })).status).toBe(412);
    expect((await stored(user.id))!.role).toBe('user');
    const promoted = await api.request('PUT', `${path}/role`, {
      token: admin.token,
      body: { role: 'artist' },
      headers: { 'if-match': tag },
    });
    expect(promoted.status).toBe(200);
    // The tag read before the role change is stale now; the one the PUT answered is current.
    expect(
      (await api.request('DELETE', path, { token: admin.token, headers: { 'if-match': tag } })).status,
    ).toBe(412);
    const current = { 'if-match': promoted.headers.get('etag')! };
    expect((await api.request('DELETE', path, { token: admin.token, headers: current })).status).toBe(204);
    expect(await stored(user.id)).toBeUndefined();
  });
});

describe('a PUT that changes nothing', () => {
  it('leaves updatedAt, the ETag and the stored password hash as they were', async () => {
    const user = await api.signUp();
    const before = await api.request('GET', `/users/${user.id}`, { token: user.token });
    const row = await stored(user.id);
    const res = await api.request('PUT', `/users/${user.id}`, {
      token: user.token,
      body: { username: before.body.username, email: user.email.toUpperCase(), password: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before.body);
    expect(res.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(await stored(user.id)).toEqual(row);
  });
});

describe('user ids in any letter case', () => {
  it('GET, PUT and DELETE take an upper-case id and answer it lower-case', async () => {
    const user = await api.signUp();
    const upper = `/users/${user.id.toUpperCase()}`;
    const got = await api.request('GET', upper, { token: user.token });
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(user.id);
    const put = await api.request('PUT', upper, {
      token: user.token,
      body: { username: 'Upper', email: user.email, password: user.password },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: user.id, username: 'Upper' });
    expect((await api.request('GET', upper, { token: admin.token })).body.id).toBe(user.id);
    expect((await api.request('DELETE', upper, { token: user.token })).status).toBe(204);
    expect(await stored(user.id)).toBeUndefined();
  });
});

describe('GET /v1/users search and sort', () => {
  it('finds by the folded words of the username or email, in the order asked', async () => {
    const tag = `q${Date.now().toString(36)}`;
    const made: Array<{ id: string }> = [];
    for (const name of ['bb', 'aa', 'cc']) {
      const res = await api.request('POST', '/users', {
        body: { username: `${tag} ${name}`, email: `${name}-${tag}@example.com`, password: 'password-123' },
      });
      made.push(res.body);
    }
    const [bb, aa, cc] = made as [{ id: string }, { id: string }, { id: string }];
    const ids = async (query: string) => {
      const res = await api.request('GET', `/users?${query}`, { token: admin.token });
      expect(res.status, query).toBe(200);
      return res.body.data.map((u: { id: string }) => u.id);
    };
    expect(await ids(`search=${tag.toUpperCase()}`)).toEqual([bb.id, aa.id, cc.id]);
    expect(await ids(`search=${tag}&sort=username`)).toEqual([aa.id, bb.id, cc.id]);
    expect(await ids(`search=${tag}&sort=-email`)).toEqual([cc.id, bb.id, aa.id]);
    expect(await ids(`search=aa-${tag}%40`)).toEqual([aa.id]);
    // Punctuation after a word is not a wildcard, and does not count: the same three.
    expect(await ids(`search=${tag}%25`)).toEqual([bb.id, aa.id, cc.id]);
  });

  it('answers 400 to an unknown sort field or an over-long search', async () => {
    for (const query of ['sort=password', 'sort=username,-username', `search=${'x'.repeat(255)}`]) {
      const res = await api.request('GET', `/users?${query}`, { token: admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(error('BAD_REQUEST'));
    }
  });
});
