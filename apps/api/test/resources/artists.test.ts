import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type Artist,
  catalogueWorld,
  DATE,
  error,
  expectCreated,
  makeArtist,
  makeArtistAccount,
  makeSong,
  type Song,
  validation,
} from '../support/catalogue';

const w = catalogueWorld();

describe('POST /v1/artists', () => {
  it('creates an artist as admin: 201, Location, the exact record', async () => {
    const res = await w.api.request<Artist>('POST', '/artists', {
      token: w.admin.token,
      body: { name: '  The Testers  ', bio: 'Line one\nLine two' },
    });
    expectCreated(res, '/artists', { name: 'The Testers', bio: 'Line one\nLine two', userId: null });
    const read = await w.api.request('GET', `/artists/${res.body.id}`, { token: w.user.token });
    expect(read.body).toEqual(res.body);
  });

  it('links an account with role artist through userId', async () => {
    const account = await w.api.signUp('artist');
    const artist = await makeArtist(w.api, w.admin, { userId: account.id });
    expect(artist.userId).toBe(account.id);
  });

  it('refuses non-admins with 403', async () => {
    for (const caller of [w.user, w.manager]) {
      const res = await w.api.request('POST', '/artists', { token: caller.token, body: { name: 'Nope' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
  });

  it('validates the body with 422 and exact fields, before the role check', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 'x'.repeat(201) }, ['name']],
      [{ name: 'ok', bio: 'b'.repeat(2001) }, ['bio']],
      [{ name: 'ok', bio: 5 }, ['bio']],
      [{ name: 'ok', userId: 'not-a-uuid' }, ['userId']],
      [
        { name: 'ok', id: randomUUID(), createdAt: '2020-01-01T00:00:00Z', genre: 'x' },
        ['id', 'createdAt', 'genre'],
      ],
      [{ name: 'null\u0000byte' }, ['name']],
    ];
    for (const [body, fields] of cases) {
      const res = await w.api.request('POST', '/artists', { token: w.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
    const asUser = await w.api.request('POST', '/artists', { token: w.user.token, body: {} });
    expect(asUser.status).toBe(422);
    expect(
      (await w.api.request('POST', '/artists', { token: w.admin.token, body: { name: 'x'.repeat(200) } }))
        .status,
    ).toBe(201);
  });

  it('answers 422 on userId when it names no user, or a user without the artist role', async () => {
    for (const userId of [randomUUID(), w.user.id, w.admin.id]) {
      const res = await w.api.request('POST', '/artists', {
        token: w.admin.token,
        body: { name: 'x', userId },
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(validation(['userId']));
    }
  });
});

describe('GET /v1/artists/{artistId}', () => {
  it('is readable by any signed-in user', async () => {
    for (const caller of [w.user, w.otherManager, w.admin]) {
      const res = await w.api.request('GET', `/artists/${w.managed.id}`, { token: caller.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...w.managed, updatedAt: expect.stringMatching(DATE) });
    }
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '1', "1' or '1'='1", 'a'.repeat(300)]) {
      const res = await w.api.request('GET', `/artists/${encodeURIComponent(id)}`, { token: w.user.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(error('NOT_FOUND'));
    }
  });
});

describe('PUT /v1/artists/{artistId}', () => {
  it('replaces the artist as admin: omitted fields become null', async () => {
    const account = await w.api.signUp('artist');
    const artist = await makeArtist(w.api, w.admin, { bio: 'old', userId: account.id });
    const res = await w.api.request('PUT', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { name: 'New' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...artist,
      name: 'New',
      bio: null,
      userId: null,
      updatedAt: expect.stringMatching(DATE),
    });
  });

  it('lets the linked user replace it, keeping the link when userId is omitted', async () => {
    const { account, artist } = await makeArtistAccount(w.api, w.admin);
    const res = await w.api.request('PUT', `/artists/${artist.id}`, {
      token: account.token,
      body: { name: 'Renamed', bio: 'mine' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', bio: 'mine', userId: account.id });
    const same = await w.api.request('PUT', `/artists/${artist.id}`, {
      token: account.token,
      body: { name: 'Again', userId: account.id },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ bio: null, userId: account.id });
  });

  it('refuses a linked user changing userId, and everyone else, with 403', async () => {
    const { account, artist } = await makeArtistAccount(w.api, w.admin);
    const other = await w.api.signUp('artist');
    for (const userId of [other.id, null]) {
      const res = await w.api.request('PUT', `/artists/${artist.id}`, {
        token: account.token,
        body: { name: 'x', userId },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
    for (const caller of [w.user, w.otherManager]) {
      const res = await w.api.request('PUT', `/artists/${artist.id}`, {
        token: caller.token,
        body: { name: 'x' },
      });
      expect(res.status).toBe(403);
    }
    const unchanged = await w.api.request('GET', `/artists/${artist.id}`, { token: w.user.token });
    expect(unchanged.body).toEqual(artist);
  });

  it('validates first (422), then existence (404), then permission (403)', async () => {
    const artist = await makeArtist(w.api, w.admin);
    expect(
      (await w.api.request('PUT', `/artists/${randomUUID()}`, { token: w.user.token, body: { bio: 'x' } }))
        .body,
    ).toEqual(validation(['name']));
    const missing = await w.api.request('PUT', `/artists/${randomUUID()}`, {
      token: w.user.token,
      body: { name: 'x' },
    });
    expect(missing.status).toBe(404);
    const malformed = await w.api.request('PUT', '/artists/nope', {
      token: w.admin.token,
      body: { name: 'x' },
    });
    expect(malformed.status).toBe(404);
    const forbidden = await w.api.request('PUT', `/artists/${artist.id}`, {
      token: w.user.token,
      body: { name: 'x' },
    });
    expect(forbidden.status).toBe(403);
    const clash = await w.api.request('PUT', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { name: 'x', artistId: artist.id },
    });
    expect(clash.body).toEqual(validation(['artistId']));
  });

  it('answers 422 on userId when an admin links a user without the artist role', async () => {
    const artist = await makeArtist(w.api, w.admin);
    const res = await w.api.request('PUT', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { name: 'x', userId: w.user.id },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validation(['userId']));
  });
});

describe('PATCH /v1/artists/{artistId}', () => {
  it('changes only the given fields', async () => {
    const artist = await makeArtist(w.api, w.admin, { bio: 'kept' });
    const res = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { name: 'P' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...artist, name: 'P', updatedAt: expect.stringMatching(DATE) });
    const cleared = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { bio: null },
    });
    expect(cleared.body).toMatchObject({ name: 'P', bio: null });
  });

  it('lets an admin link and unlink an account; the linked user may edit but not relink', async () => {
    const artist = await makeArtist(w.api, w.admin);
    const account = await w.api.signUp('artist');
    const linked = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { userId: account.id },
    });
    expect(linked.body.userId).toBe(account.id);
    const edit = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: account.token,
      body: { bio: 'b' },
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ bio: 'b', userId: account.id });
    const relink = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: account.token,
      body: { userId: w.otherManager.id },
    });
    expect(relink.status).toBe(403);
    const unlinked = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { userId: null },
    });
    expect(unlinked.body.userId).toBeNull();
    // Unlinked, the account has no rights on the artist any more.
    const after = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: account.token,
      body: { bio: 'c' },
    });
    expect(after.status).toBe(403);
  });

  it('answers 403 to others, 404 for unknown ids, 422 for bad fields', async () => {
    for (const caller of [w.user, w.otherManager]) {
      const res = await w.api.request('PATCH', `/artists/${w.managed.id}`, {
        token: caller.token,
        body: { bio: 'x' },
      });
      expect(res.status).toBe(403);
    }
    expect(
      (await w.api.request('PATCH', `/artists/${randomUUID()}`, { token: w.admin.token, body: { bio: 'x' } }))
        .status,
    ).toBe(404);
    const bad = await w.api.request('PATCH', `/artists/${w.managed.id}`, {
      token: w.admin.token,
      body: { name: null, bio: 'x'.repeat(2001), nickname: 'n' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(validation(['name', 'bio', 'nickname']));
  });
});

describe('DELETE /v1/artists/{artistId}', () => {
  it('deletes as admin with 204 and no body; its songs stay, unlinked', async () => {
    const artist = await makeArtist(w.api, w.admin);
    const partner = await makeArtist(w.api, w.admin);
    const song = await makeSong(w.api, w.admin, { artistIds: [artist.id, partner.id] });
    const res = await w.api.request('DELETE', `/artists/${artist.id}`, { token: w.admin.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await w.api.request('GET', `/artists/${artist.id}`, { token: w.admin.token })).status).toBe(404);
    const after = await w.api.request<Song>('GET', `/songs/${song.id}`, { token: w.admin.token });
    expect(after.status).toBe(200);
    expect(after.body.artistIds).toEqual([partner.id]);
    expect((await w.api.request('DELETE', `/artists/${artist.id}`, { token: w.admin.token })).status).toBe(
      404,
    );
  });

  it('refuses everyone but admins with 403 (the linked user included); unknown ids are 404', async () => {
    for (const caller of [w.user, w.manager, w.otherManager]) {
      const res = await w.api.request('DELETE', `/artists/${w.managed.id}`, { token: caller.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
    for (const id of [randomUUID(), 'nope']) {
      expect((await w.api.request('DELETE', `/artists/${id}`, { token: w.user.token })).status).toBe(404);
    }
  });

  it('keeps an artist whose account is deleted, with userId null', async () => {
    const { account, artist } = await makeArtistAccount(w.api, w.admin);
    expect((await w.api.request('DELETE', `/users/${account.id}`, { token: account.token })).status).toBe(
      204,
    );
    const after = await w.api.request('GET', `/artists/${artist.id}`, { token: w.user.token });
    expect(after.status).toBe(200);
    expect(after.body.userId).toBeNull();
  });
});
