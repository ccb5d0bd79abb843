import { backdate } from '@music/db/testing';
import { describe, expect, it } from 'vitest';
import { type Artist, catalogueWorld, makeArtist, tag, validation } from '../support/catalogue';

const w = catalogueWorld();

describe('artists: UUIDs in any letter case', () => {
  it('takes upper-case ids in the path, in userId (body and query), and answers lower-case', async () => {
    const account = await w.api.signUp('artist');
    const created = await w.api.request<Artist>('POST', '/artists', {
      token: w.admin.token,
      body: { name: `Upper ${tag()}`, userId: account.id.toUpperCase() },
    });
    expect(created.status).toBe(201);
    expect(created.body.userId).toBe(account.id);
    const upper = created.body.id.toUpperCase();

    const got = await w.api.request('GET', `/artists/${upper}`, { token: w.user.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const mine = await w.api.request('GET', `/artists?userId=${account.id.toUpperCase()}`, {
      token: account.token,
    });
    expect(mine.body.data).toEqual([created.body]);

    // The linked user repeats their own link in upper case: no change of link, so allowed.
    const put = await w.api.request('PUT', `/artists/${upper}`, {
      token: account.token,
      body: { name: 'Renamed', userId: account.id.toUpperCase() },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.body.id, name: 'Renamed', userId: account.id });
    const patch = await w.api.request('PATCH', `/artists/${upper}`, {
      token: w.admin.token,
      body: { bio: 'b' },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.id).toBe(created.body.id);
    expect((await w.api.request('DELETE', `/artists/${upper}`, { token: w.admin.token })).status).toBe(204);
    expect((await w.api.request('GET', `/artists/${created.body.id}`, { token: w.user.token })).status).toBe(
      404,
    );
  });
});

describe('artists: text in NFC', () => {
  it('stores a decomposed name composed and finds it by either form', async () => {
    const t = tag();
    const made = await makeArtist(w.api, w.admin, { name: `Sigur Ro\u0301s ${t}`, bio: 'Reykjavi\u0301k\n' });
    expect(made).toMatchObject({ name: `Sigur R\u00f3s ${t}`, bio: 'Reykjav\u00edk\n' });
    for (const term of [`R\u00f3s ${t}`, `Ro\u0301s ${t}`]) {
      const res = await w.api.request('GET', `/artists?search=${encodeURIComponent(term)}`, {
        token: w.user.token,
      });
      expect(res.body.data.map((a: Artist) => a.id)).toEqual([made.id]);
    }
    const bad = await w.api.request('PATCH', `/artists/${made.id}`, {
      token: w.admin.token,
      rawBody: '{"bio":"\\udfff"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.body).toEqual(validation(['bio']));
  });
});

describe('artist writes that change nothing', () => {
  it('leave updatedAt and the ETag as they were; a change moves them', async () => {
    const made = await makeArtist(w.api, w.admin, { name: `Calm ${tag()}`, userId: w.otherManager.id });
    await backdate(w.api.database.db, 'artists', made.id);
    const before = await w.api.request('GET', `/artists/${made.id}`, { token: w.user.token });
    expect(before.body.updatedAt).toBe('2020-01-01T00:00:00Z');
    const writes: Array<[string, Record<string, unknown>]> = [
      ['PATCH', {}],
      ['PATCH', { name: made.name, bio: null }],
      ['PUT', { name: made.name, userId: w.otherManager.id }],
      ['PUT', { name: ` ${made.name} `, bio: null, userId: w.otherManager.id }],
    ];
    for (const [method, body] of writes) {
      const res = await w.api.request(method, `/artists/${made.id}`, { token: w.admin.token, body });
      expect(res.status).toBe(200);
      expect(res.body, `${method} ${JSON.stringify(body)}`).toEqual(before.body);
      expect(res.headers.get('etag')).toBe(before.headers.get('etag'));
    }
    // The manager's PUT without userId keeps the link: no change either.
    const byManager = await w.api.request('PUT', `/artists/${made.id}`, {
      token: w.otherManager.token,
      body: { name: made.name },
    });
    expect(byManager.body).toEqual(before.body);
    const changed = await w.api.request('PUT', `/artists/${made.id}`, {
      token: w.admin.token,
      body: { name: made.name },
    });
    expect(changed.body).toMatchObject({ userId: null });
    expect(changed.body.updatedAt).not.toBe('2020-01-01T00:00:00Z');
  });
});
