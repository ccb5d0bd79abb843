import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DATE,
  error,
  expectCreated,
  makePlaylist,
  type Playlist,
  playlistWorld,
  type Song,
  validation,
} from '../support/catalogue';
import { createClient } from '../support/harness';

const w = playlistWorld();

describe('POST /v1/playlists', () => {
  it('creates a playlist for the caller: 201, Location, the exact record', async () => {
    const res = await w.api.request<Playlist>('POST', '/playlists', {
      token: w.owner.token,
      body: {
        name: ' Road Trip ',
        description: 'Long\ndrives',
        isPublic: true,
        songIds: [w.songs[2]!.id, w.songs[0]!.id],
      },
    });
    expectCreated(res, '/playlists', {
      userId: w.owner.id,
      name: 'Road Trip',
      description: 'Long\ndrives',
      isPublic: true,
      songIds: [w.songs[2]!.id, w.songs[0]!.id],
      songCount: 2,
    });
  });

  it('defaults description to null, isPublic to false, songs to none', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { name: 'Bare' });
    expect(playlist).toMatchObject({ description: null, isPublic: false, songIds: [], songCount: 0 });
  });

  it('lets an admin create one for another user; a user may name only themself', async () => {
    const forOwner = await makePlaylist(w.api, w.admin, { userId: w.owner.id });
    expect(forOwner.userId).toBe(w.owner.id);
    const self = await makePlaylist(w.api, w.owner, { userId: w.owner.id });
    expect(self.userId).toBe(w.owner.id);
    const denied = await w.api.request('POST', '/playlists', {
      token: w.owner.token,
      body: { name: 'x', userId: w.other.id },
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(error('FORBIDDEN'));
    const unknown = await w.api.request('POST', '/playlists', {
      token: w.admin.token,
      body: { name: 'x', userId: randomUUID() },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(validation(['userId']));
  });

  it('answers 422 with exact fields for invalid, repeated and unknown values', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, ['name']],
      [
        { name: 'x'.repeat(101), description: 'd'.repeat(1001), isPublic: 'yes' },
        ['name', 'description', 'isPublic'],
      ],
      [{ name: 'x', songIds: [w.songs[0]!.id, w.songs[1]!.id, w.songs[0]!.id] }, ['songIds.2']],
      [{ name: 'x', songIds: ['nope'] }, ['songIds.0']],
      [{ name: 'x', songCount: 3, id: randomUUID() }, ['songCount', 'id']],
      [{ name: 'x', songIds: [w.songs[0]!.id, randomUUID()] }, ['songIds.1']],
    ];
    for (const [body, fields] of cases) {
      const res = await w.api.request('POST', '/playlists', { token: w.owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
  });
});

describe('GET /v1/playlists', () => {
  it('shows a user their own playlists only, ordered by createdAt, then id', async () => {
    const me = await w.api.signUp('user');
    const first = await makePlaylist(w.api, me);
    const second = await makePlaylist(w.api, me);
    await makePlaylist(w.api, w.other);
    const res = await w.api.request('GET', '/playlists', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [first, second], pagination: { page: 1, limit: 20, total: 2 } });
    const own = await w.api.request('GET', `/playlists?userId=${me.id}`, { token: me.token });
    expect(own.body).toEqual(res.body);
    const page2 = await w.api.request('GET', '/playlists?limit=1&page=2', { token: me.token });
    expect(page2.body).toEqual({ data: [second], pagination: { page: 2, limit: 1, total: 2 } });
    const past = await w.api.request('GET', '/playlists?limit=1&page=3', { token: me.token });
    expect(past.body).toEqual({ data: [], pagination: { page: 3, limit: 1, total: 2 } });
  });

  it('answers 403 to a user asking for someone else’s, existing or not', async () => {
    for (const userId of [w.other.id, w.admin.id, randomUUID()]) {
      const res = await w.api.request('GET', `/playlists?userId=${userId}`, { token: w.owner.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
  });

  it('shows an admin everything, or one user’s', async () => {
    const me = await w.api.signUp('user');
    const mine = await makePlaylist(w.api, me);
    const all = await w.api.request('GET', '/playlists?limit=100', { token: w.admin.token });
    expect(all.body.pagination.total).toBeGreaterThan(1);
    const filtered = await w.api.request('GET', `/playlists?userId=${me.id}`, { token: w.admin.token });
    expect(filtered.body).toEqual({ data: [mine], pagination: { page: 1, limit: 20, total: 1 } });
    const nobody = await w.api.request('GET', `/playlists?userId=${randomUUID()}`, { token: w.admin.token });
    expect(nobody.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });

  it('lists public playlists of every user with visibility=public (an extension)', async () => {
    const me = await w.api.signUp('user');
    const someone = await w.api.signUp('user');
    const shared = await makePlaylist(w.api, someone, { isPublic: true });
    const hidden = await makePlaylist(w.api, someone, { isPublic: false });
    const res = await w.api.request<{ data: Playlist[]; pagination: { total: number } }>(
      'GET',
      `/playlists?visibility=public&userId=${someone.id}`,
      { token: me.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [shared], pagination: { page: 1, limit: 20, total: 1 } });
    const everyone = await w.api.request<{ data: Playlist[]; pagination: { total: number } }>(
      'GET',
      '/playlists?visibility=public&limit=100',
      { token: me.token },
    );
    expect(everyone.body.data.every((p) => p.isPublic)).toBe(true);
    expect(everyone.body.data.map((p) => p.id)).not.toContain(hidden.id);
    const bad = await w.api.request('GET', '/playlists?visibility=private', { token: me.token });
    expect(bad.status).toBe(400);
  });
});

describe('GET /v1/playlists/{playlistId}', () => {
  it('shows a private playlist to its owner and admins only', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: w.ids(2) });
    for (const caller of [w.owner, w.admin]) {
      const res = await w.api.request('GET', `/playlists/${playlist.id}`, { token: caller.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(playlist);
    }
    const denied = await w.api.request('GET', `/playlists/${playlist.id}`, { token: w.other.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(error('FORBIDDEN'));
  });

  it('shows a public playlist to anyone signed in', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { isPublic: true });
    const res = await w.api.request('GET', `/playlists/${playlist.id}`, { token: w.other.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(playlist);
  });

  it('answers 404 to everyone for unknown and malformed ids', async () => {
    for (const id of [randomUUID(), 'nope']) {
      for (const caller of [w.owner, w.admin]) {
        const res = await w.api.request('GET', `/playlists/${id}`, { token: caller.token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(error('NOT_FOUND'));
      }
    }
  });
});

describe('PUT /v1/playlists/{playlistId}', () => {
  it('replaces fields: omitted description and isPublic reset, omitted songIds keeps the songs', async () => {
    const playlist = await makePlaylist(w.api, w.owner, {
      description: 'd',
      isPublic: true,
      songIds: w.ids(3),
    });
    const res = await w.api.request('PUT', `/playlists/${playlist.id}`, {
      token: w.owner.token,
      body: { name: 'New' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...playlist,
      name: 'New',
      description: null,
      isPublic: false,
      updatedAt: expect.stringMatching(DATE),
    });
  });

  it('reorders with a given songIds, and empties with []', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: w.ids(3) });
    const reordered = [w.songs[2]!.id, w.songs[0]!.id, w.songs[3]!.id];
    const res = await w.api.request('PUT', `/playlists/${playlist.id}`, {
      token: w.owner.token,
      body: { name: playlist.name, songIds: reordered },
    });
    expect(res.body).toMatchObject({ songIds: reordered, songCount: 3 });
    const listed = await w.api.request('GET', `/playlists/${playlist.id}/songs`, { token: w.owner.token });
    expect(listed.body.data.map((s: Song) => s.id)).toEqual(reordered);
    const emptied = await w.api.request('PUT', `/playlists/${playlist.id}`, {
      token: w.admin.token,
      body: { name: 'x', songIds: [] },
    });
    expect(emptied.body).toMatchObject({ songIds: [], songCount: 0, userId: w.owner.id });
  });

  it('refuses everyone but the owner and admins, public playlists included', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { isPublic: true });
    const res = await w.api.request('PUT', `/playlists/${playlist.id}`, {
      token: w.other.token,
      body: { name: 'x' },
    });
    expect(res.status).toBe(403);
    expect((await w.api.request('GET', `/playlists/${playlist.id}`, { token: w.owner.token })).body).toEqual(
      playlist,
    );
  });

  it('validates first (422), then existence (404); unknown songs are 422', async () => {
    const playlist = await makePlaylist(w.api, w.owner);
    expect(
      (
        await w.api.request('PUT', `/playlists/${randomUUID()}`, {
          token: w.other.token,
          body: { isPublic: true },
        })
      ).body,
    ).toEqual(validation(['name']));
    expect(
      (
        await w.api.request('PUT', `/playlists/${randomUUID()}`, {
          token: w.owner.token,
          body: { name: 'x' },
        })
      ).status,
    ).toBe(404);
    const unknown = await w.api.request('PUT', `/playlists/${playlist.id}`, {
      token: w.owner.token,
      body: { name: 'x', songIds: [randomUUID()] },
    });
    expect(unknown.body).toEqual(validation(['songIds.0']));
    const readOnly = await w.api.request('PUT', `/playlists/${playlist.id}`, {
      token: w.owner.token,
      body: { name: 'x', userId: w.other.id, createdAt: '2020-01-01T00:00:00Z' },
    });
    expect(readOnly.body).toEqual(validation(['userId', 'createdAt']));
  });
});

describe('DELETE /v1/playlists/{playlistId}', () => {
  it('deletes with 204; the songs stay', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: w.ids(2) });
    expect(
      (await w.api.request('DELETE', `/playlists/${playlist.id}`, { token: w.other.token })).status,
    ).toBe(403);
    const res = await w.api.request('DELETE', `/playlists/${playlist.id}`, { token: w.owner.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await w.api.request('GET', `/playlists/${playlist.id}`, { token: w.owner.token })).status).toBe(
      404,
    );
    expect((await w.api.request('GET', `/songs/${w.songs[0]!.id}`, { token: w.owner.token })).status).toBe(
      200,
    );
    expect(
      (await w.api.request('DELETE', `/playlists/${playlist.id}`, { token: w.admin.token })).status,
    ).toBe(404);
  });

  it('lets an admin delete anyone’s', async () => {
    const playlist = await makePlaylist(w.api, w.owner);
    expect(
      (await w.api.request('DELETE', `/playlists/${playlist.id}`, { token: w.admin.token })).status,
    ).toBe(204);
  });

  it('goes with its owner when the owner is deleted', async () => {
    const leaving = await w.api.signUp('user');
    const playlist = await makePlaylist(w.api, leaving, { songIds: w.ids(1) });
    expect((await w.api.request('DELETE', `/users/${leaving.id}`, { token: leaving.token })).status).toBe(
      204,
    );
    expect((await w.api.request('GET', `/playlists/${playlist.id}`, { token: w.admin.token })).status).toBe(
      404,
    );
    expect((await w.api.request('GET', `/songs/${w.songs[0]!.id}`, { token: w.admin.token })).status).toBe(
      200,
    );
  });
});

describe('/trpc transport', () => {
  it('keeps private playlists private over RPC too', async () => {
    const trpc = createClient(w.api.url.replace('/v1', '/trpc'));
    const playlist = await makePlaylist(w.api, w.owner);
    const input = encodeURIComponent(JSON.stringify({ playlistId: playlist.id }));
    const denied = await trpc.request('GET', `/playlists.get?input=${input}`, { token: w.other.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.data).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403 });
    const add = await trpc.request('POST', '/playlists.addSong', {
      token: w.other.token,
      body: { playlistId: playlist.id, songId: w.songs[0]!.id },
    });
    expect(add.status).toBe(403);
    const mine = await trpc.request('GET', `/playlists.get?input=${input}`, { token: w.owner.token });
    expect(mine.body.result.data).toEqual(playlist);
  });
});
