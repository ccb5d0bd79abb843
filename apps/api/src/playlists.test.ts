import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATE,
  error,
  expectTokenRequired,
  makePlaylist,
  makeSong,
  type Playlist,
  type Song,
  UUID,
  validation,
} from './testing/catalogue';
import { createClient, type SignedIn, startTestApi, type TestApi } from './testing/harness';

let api: TestApi;
let admin: SignedIn;
let owner: SignedIn;
let other: SignedIn;
let songs: Song[];

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.signUp('admin');
  owner = await api.signUp('user');
  other = await api.signUp('user');
  songs = [];
  for (let i = 0; i < 4; i++) songs.push(await makeSong(api, admin, { title: `Track ${i}` }));
});
afterAll(() => api?.close());

const ids = (n: number) => songs.slice(0, n).map((s) => s.id);

describe('playlists: authentication', () => {
  it('answers 401 on every operation without a valid token', async () => {
    const id = randomUUID();
    await expectTokenRequired(api, [
      ['GET', '/playlists'],
      ['POST', '/playlists'],
      ['GET', `/playlists/${id}`],
      ['PUT', `/playlists/${id}`],
      ['DELETE', `/playlists/${id}`],
      ['GET', `/playlists/${id}/songs`],
      ['POST', `/playlists/${id}/songs`],
      ['DELETE', `/playlists/${id}/songs/${id}`],
    ]);
  });
});

describe('POST /v1/playlists', () => {
  it('creates a playlist for the caller: 201, Location, the exact record', async () => {
    const res = await api.request<Playlist>('POST', '/playlists', {
      token: owner.token,
      body: {
        name: ' Road Trip ',
        description: 'Long\ndrives',
        isPublic: true,
        songIds: [songs[2]!.id, songs[0]!.id],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      userId: owner.id,
      name: 'Road Trip',
      description: 'Long\ndrives',
      isPublic: true,
      songIds: [songs[2]!.id, songs[0]!.id],
      songCount: 2,
      createdAt: expect.stringMatching(DATE),
      updatedAt: expect.stringMatching(DATE),
    });
    expect(res.headers.get('location')).toBe(`/v1/playlists/${res.body.id}`);
  });

  it('defaults description to null, isPublic to false, songs to none', async () => {
    const playlist = await makePlaylist(api, owner, { name: 'Bare' });
    expect(playlist).toMatchObject({ description: null, isPublic: false, songIds: [], songCount: 0 });
  });

  it('lets an admin create one for another user; a user may name only themself', async () => {
    const forOwner = await makePlaylist(api, admin, { userId: owner.id });
    expect(forOwner.userId).toBe(owner.id);
    const self = await makePlaylist(api, owner, { userId: owner.id });
    expect(self.userId).toBe(owner.id);
    const denied = await api.request('POST', '/playlists', {
      token: owner.token,
      body: { name: 'x', userId: other.id },
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(error('FORBIDDEN'));
    const unknown = await api.request('POST', '/playlists', {
      token: admin.token,
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
      [{ name: 'x', songIds: [songs[0]!.id, songs[1]!.id, songs[0]!.id] }, ['songIds.2']],
      [{ name: 'x', songIds: ['nope'] }, ['songIds.0']],
      [{ name: 'x', songCount: 3, id: randomUUID() }, ['songCount', 'id']],
      [{ name: 'x', songIds: [songs[0]!.id, randomUUID()] }, ['songIds.1']],
    ];
    for (const [body, fields] of cases) {
      const res = await api.request('POST', '/playlists', { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
  });

  it('answers 400 without errors for a malformed body', async () => {
    for (const rawBody of ['{', 'null', '[1]']) {
      const res = await api.request('POST', '/playlists', {
        token: owner.token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error('BAD_REQUEST'));
    }
    const wrongType = await api.request('POST', '/playlists', {
      token: owner.token,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(400);
  });
});

describe('GET /v1/playlists', () => {
  it('shows a user their own playlists only, ordered by createdAt, then id', async () => {
    const me = await api.signUp('user');
    const first = await makePlaylist(api, me);
    const second = await makePlaylist(api, me);
    await makePlaylist(api, other);
    const res = await api.request('GET', '/playlists', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [first, second], pagination: { page: 1, limit: 20, total: 2 } });
    const own = await api.request('GET', `/playlists?userId=${me.id}`, { token: me.token });
    expect(own.body).toEqual(res.body);
    const page2 = await api.request('GET', '/playlists?limit=1&page=2', { token: me.token });
    expect(page2.body).toEqual({ data: [second], pagination: { page: 2, limit: 1, total: 2 } });
    const past = await api.request('GET', '/playlists?limit=1&page=3', { token: me.token });
    expect(past.body).toEqual({ data: [], pagination: { page: 3, limit: 1, total: 2 } });
  });

  it('answers 403 to a user asking for someone else’s, existing or not', async () => {
    for (const userId of [other.id, admin.id, randomUUID()]) {
      const res = await api.request('GET', `/playlists?userId=${userId}`, { token: owner.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
  });

  it('shows an admin everything, or one user’s', async () => {
    const me = await api.signUp('user');
    const mine = await makePlaylist(api, me);
    const all = await api.request('GET', '/playlists?limit=100', { token: admin.token });
    expect(all.body.pagination.total).toBeGreaterThan(1);
    const filtered = await api.request('GET', `/playlists?userId=${me.id}`, { token: admin.token });
    expect(filtered.body).toEqual({ data: [mine], pagination: { page: 1, limit: 20, total: 1 } });
    const nobody = await api.request('GET', `/playlists?userId=${randomUUID()}`, { token: admin.token });
    expect(nobody.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });

  it('lists public playlists of every user with visibility=public (an extension)', async () => {
    const me = await api.signUp('user');
    const someone = await api.signUp('user');
    const shared = await makePlaylist(api, someone, { isPublic: true });
    const hidden = await makePlaylist(api, someone, { isPublic: false });
    const res = await api.request<{ data: Playlist[]; pagination: { total: number } }>(
      'GET',
      `/playlists?visibility=public&userId=${someone.id}`,
      { token: me.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [shared], pagination: { page: 1, limit: 20, total: 1 } });
    const everyone = await api.request<{ data: Playlist[]; pagination: { total: number } }>(
      'GET',
      '/playlists?visibility=public&limit=100',
      { token: me.token },
    );
    expect(everyone.body.data.every((p) => p.isPublic)).toBe(true);
    expect(everyone.body.data.map((p) => p.id)).not.toContain(hidden.id);
    const bad = await api.request('GET', '/playlists?visibility=private', { token: me.token });
    expect(bad.status).toBe(400);
  });

  it('answers 400 for malformed query parameters', async () => {
    for (const query of ['page=0', 'limit=101', 'limit=abc', 'userId=not-a-uuid']) {
      const res = await api.request('GET', `/playlists?${query}`, { token: owner.token });
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(error('BAD_REQUEST'));
    }
  });
});

describe('GET /v1/playlists/{playlistId}', () => {
  it('shows a private playlist to its owner and admins only', async () => {
    const playlist = await makePlaylist(api, owner, { songIds: ids(2) });
    for (const caller of [owner, admin]) {
      const res = await api.request('GET', `/playlists/${playlist.id}`, { token: caller.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(playlist);
    }
    const denied = await api.request('GET', `/playlists/${playlist.id}`, { token: other.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(error('FORBIDDEN'));
  });

  it('shows a public playlist to anyone signed in', async () => {
    const playlist = await makePlaylist(api, owner, { isPublic: true });
    const res = await api.request('GET', `/playlists/${playlist.id}`, { token: other.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(playlist);
  });

  it('answers 404 to everyone for unknown and malformed ids', async () => {
    for (const id of [randomUUID(), 'nope']) {
      for (const caller of [owner, admin]) {
        const res = await api.request('GET', `/playlists/${id}`, { token: caller.token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(error('NOT_FOUND'));
      }
    }
  });
});

describe('PUT /v1/playlists/{playlistId}', () => {
  it('replaces fields: omitted description and isPublic reset, omitted songIds keeps the songs', async () => {
    const playlist = await makePlaylist(api, owner, { description: 'd', isPublic: true, songIds: ids(3) });
    const res = await api.request('PUT', `/playlists/${playlist.id}`, {
      token: owner.token,
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
    const playlist = await makePlaylist(api, owner, { songIds: ids(3) });
    const reordered = [songs[2]!.id, songs[0]!.id, songs[3]!.id];
    const res = await api.request('PUT', `/playlists/${playlist.id}`, {
      token: owner.token,
      body: { name: playlist.name, songIds: reordered },
    });
    expect(res.body).toMatchObject({ songIds: reordered, songCount: 3 });
    const listed = await api.request('GET', `/playlists/${playlist.id}/songs`, { token: owner.token });
    expect(listed.body.data.map((s: Song) => s.id)).toEqual(reordered);
    const emptied = await api.request('PUT', `/playlists/${playlist.id}`, {
      token: admin.token,
      body: { name: 'x', songIds: [] },
    });
    expect(emptied.body).toMatchObject({ songIds: [], songCount: 0, userId: owner.id });
  });

  it('refuses everyone but the owner and admins, public playlists included', async () => {
    const playlist = await makePlaylist(api, owner, { isPublic: true });
    const res = await api.request('PUT', `/playlists/${playlist.id}`, {
      token: other.token,
      body: { name: 'x' },
    });
    expect(res.status).toBe(403);
    expect((await api.request('GET', `/playlists/${playlist.id}`, { token: owner.token })).body).toEqual(
      playlist,
    );
  });

  it('validates first (422), then existence (404); unknown songs are 422', async () => {
    const playlist = await makePlaylist(api, owner);
    expect(
      (
        await api.request('PUT', `/playlists/${randomUUID()}`, {
          token: other.token,
          body: { isPublic: true },
        })
      ).body,
    ).toEqual(validation(['name']));
    expect(
      (await api.request('PUT', `/playlists/${randomUUID()}`, { token: owner.token, body: { name: 'x' } }))
        .status,
    ).toBe(404);
    const unknown = await api.request('PUT', `/playlists/${playlist.id}`, {
      token: owner.token,
      body: { name: 'x', songIds: [randomUUID()] },
    });
    expect(unknown.body).toEqual(validation(['songIds.0']));
    const readOnly = await api.request('PUT', `/playlists/${playlist.id}`, {
      token: owner.token,
      body: { name: 'x', userId: other.id, createdAt: '2020-01-01T00:00:00Z' },
    });
    expect(readOnly.body).toEqual(validation(['userId', 'createdAt']));
  });
});

describe('DELETE /v1/playlists/{playlistId}', () => {
  it('deletes with 204; the songs stay', async () => {
    const playlist = await makePlaylist(api, owner, { songIds: ids(2) });
    expect((await api.request('DELETE', `/playlists/${playlist.id}`, { token: other.token })).status).toBe(
      403,
    );
    const res = await api.request('DELETE', `/playlists/${playlist.id}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.request('GET', `/playlists/${playlist.id}`, { token: owner.token })).status).toBe(404);
    expect((await api.request('GET', `/songs/${songs[0]!.id}`, { token: owner.token })).status).toBe(200);
    expect((await api.request('DELETE', `/playlists/${playlist.id}`, { token: admin.token })).status).toBe(
      404,
    );
  });

  it('lets an admin delete anyone’s', async () => {
    const playlist = await makePlaylist(api, owner);
    expect((await api.request('DELETE', `/playlists/${playlist.id}`, { token: admin.token })).status).toBe(
      204,
    );
  });

  it('goes with its owner when the owner is deleted', async () => {
    const leaving = await api.signUp('user');
    const playlist = await makePlaylist(api, leaving, { songIds: ids(1) });
    expect((await api.request('DELETE', `/users/${leaving.id}`, { token: leaving.token })).status).toBe(204);
    expect((await api.request('GET', `/playlists/${playlist.id}`, { token: admin.token })).status).toBe(404);
    expect((await api.request('GET', `/songs/${songs[0]!.id}`, { token: admin.token })).status).toBe(200);
  });
});

describe('GET /v1/playlists/{playlistId}/songs', () => {
  it('lists the songs in playlist order, paged', async () => {
    const order = [songs[3]!, songs[1]!, songs[2]!];
    const playlist = await makePlaylist(api, owner, { songIds: order.map((s) => s.id) });
    const res = await api.request('GET', `/playlists/${playlist.id}/songs?limit=2`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [order[0], order[1]], pagination: { page: 1, limit: 2, total: 3 } });
    const page2 = await api.request('GET', `/playlists/${playlist.id}/songs?limit=2&page=2`, {
      token: owner.token,
    });
    expect(page2.body.data).toEqual([order[2]]);
    const past = await api.request('GET', `/playlists/${playlist.id}/songs?page=5`, { token: owner.token });
    expect(past.body).toEqual({ data: [], pagination: { page: 5, limit: 20, total: 3 } });
  });

  it('follows the playlist’s read rules: 403 private, 200 public, 404 unknown, 400 bad paging', async () => {
    const secret = await makePlaylist(api, owner, { songIds: ids(1) });
    expect((await api.request('GET', `/playlists/${secret.id}/songs`, { token: other.token })).status).toBe(
      403,
    );
    const open = await makePlaylist(api, owner, { songIds: ids(1), isPublic: true });
    expect((await api.request('GET', `/playlists/${open.id}/songs`, { token: other.token })).status).toBe(
      200,
    );
    expect(
      (await api.request('GET', `/playlists/${randomUUID()}/songs`, { token: owner.token })).status,
    ).toBe(404);
    expect(
      (await api.request('GET', `/playlists/${open.id}/songs?page=0`, { token: owner.token })).status,
    ).toBe(400);
  });
});

describe('POST /v1/playlists/{playlistId}/songs', () => {
  it('appends a song with 204; adding it again is 409', async () => {
    const playlist = await makePlaylist(api, owner, { songIds: [songs[1]!.id] });
    const res = await api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: owner.token,
      body: { songId: songs[0]!.id },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ songIds: [songs[1]!.id, songs[0]!.id], songCount: 2 });
    expect(after.body.updatedAt >= playlist.updatedAt).toBe(true);
    const again = await api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: owner.token,
      body: { songId: songs[0]!.id },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(error('CONFLICT'));
  });

  it('answers 422 on songId for unknown, malformed or missing songs', async () => {
    const playlist = await makePlaylist(api, owner);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ songId: randomUUID() }, ['songId']],
      [{ songId: 'nope' }, ['songId']],
      [{}, ['songId']],
      [{ songId: songs[0]!.id, position: 1 }, ['position']],
      [{ songId: songs[0]!.id, playlistId: playlist.id }, ['playlistId']],
    ];
    for (const [body, fields] of cases) {
      const res = await api.request('POST', `/playlists/${playlist.id}/songs`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
  });

  it('refuses everyone but the owner and admins; unknown playlists are 404', async () => {
    const playlist = await makePlaylist(api, owner, { isPublic: true });
    const denied = await api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: other.token,
      body: { songId: songs[0]!.id },
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(error('FORBIDDEN'));
    const byAdmin = await api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: admin.token,
      body: { songId: songs[0]!.id },
    });
    expect(byAdmin.status).toBe(204);
    const missing = await api.request('POST', `/playlists/${randomUUID()}/songs`, {
      token: owner.token,
      body: { songId: songs[0]!.id },
    });
    expect(missing.status).toBe(404);
  });

  it('of two concurrent adds of one song, exactly one succeeds and the other is 409', async () => {
    for (let round = 0; round < 3; round++) {
      const playlist = await makePlaylist(api, owner);
      const add = () =>
        api.request('POST', `/playlists/${playlist.id}/songs`, {
          token: owner.token,
          body: { songId: songs[0]!.id },
        });
      const results = await Promise.all([add(), add()]);
      expect(results.map((r) => r.status).sort()).toEqual([204, 409]);
      const after = await api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: owner.token });
      expect(after.body).toMatchObject({ songIds: [songs[0]!.id], songCount: 1 });
    }
  });

  it('takes 10 concurrent adds of different songs, all at distinct positions', async () => {
    const extra: Song[] = [];
    for (let i = 0; i < 10; i++) extra.push(await makeSong(api, admin));
    const playlist = await makePlaylist(api, owner);
    const results = await Promise.all(
      extra.map((song) =>
        api.request('POST', `/playlists/${playlist.id}/songs`, {
          token: owner.token,
          body: { songId: song.id },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(204));
    const after = await api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: owner.token });
    expect(after.body.songCount).toBe(10);
    expect([...after.body.songIds].sort()).toEqual(extra.map((s) => s.id).sort());
    const rows = await api.database.db
      .selectFrom('playlist_songs')
      .select('position')
      .where('playlist_id', '=', playlist.id)
      .execute();
    expect(new Set(rows.map((r) => r.position)).size).toBe(10);
  });
});

describe('DELETE /v1/playlists/{playlistId}/songs/{songId}', () => {
  it('removes a song with 204; the song stays; removing it again is 404', async () => {
    const playlist = await makePlaylist(api, owner, { songIds: ids(3) });
    const res = await api.request('DELETE', `/playlists/${playlist.id}/songs/${songs[1]!.id}`, {
      token: owner.token,
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ songIds: [songs[0]!.id, songs[2]!.id], songCount: 2 });
    expect((await api.request('GET', `/songs/${songs[1]!.id}`, { token: owner.token })).status).toBe(200);
    const again = await api.request('DELETE', `/playlists/${playlist.id}/songs/${songs[1]!.id}`, {
      token: owner.token,
    });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error('NOT_FOUND'));
    // A song added after a removal goes last.
    await api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: owner.token,
      body: { songId: songs[1]!.id },
    });
    const readded = await api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: owner.token });
    expect(readded.body.songIds).toEqual([songs[0]!.id, songs[2]!.id, songs[1]!.id]);
  });

  it('answers 403 to non-owners and 404 for unknown playlists or songs', async () => {
    const playlist = await makePlaylist(api, owner, { songIds: ids(1), isPublic: true });
    const denied = await api.request('DELETE', `/playlists/${playlist.id}/songs/${songs[0]!.id}`, {
      token: other.token,
    });
    expect(denied.status).toBe(403);
    for (const path of [
      `/playlists/${randomUUID()}/songs/${songs[0]!.id}`,
      `/playlists/${playlist.id}/songs/${randomUUID()}`,
      `/playlists/${playlist.id}/songs/nope`,
    ]) {
      expect((await api.request('DELETE', path, { token: owner.token })).status, path).toBe(404);
    }
    expect(
      (await api.request('DELETE', `/playlists/${playlist.id}/songs/${songs[0]!.id}`, { token: admin.token }))
        .status,
    ).toBe(204);
  });
});

describe('/trpc transport', () => {
  it('keeps private playlists private over RPC too', async () => {
    const trpc = createClient(api.url.replace('/v1', '/trpc'));
    const playlist = await makePlaylist(api, owner);
    const input = encodeURIComponent(JSON.stringify({ playlistId: playlist.id }));
    const denied = await trpc.request('GET', `/playlists.get?input=${input}`, { token: other.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.data).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403 });
    const add = await trpc.request('POST', '/playlists.addSong', {
      token: other.token,
      body: { playlistId: playlist.id, songId: songs[0]!.id },
    });
    expect(add.status).toBe(403);
    const mine = await trpc.request('GET', `/playlists.get?input=${input}`, { token: owner.token });
    expect(mine.body.result.data).toEqual(playlist);
  });
});
