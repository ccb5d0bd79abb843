import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  error,
  makePlaylist,
  makeSong,
  type Playlist,
  playlistWorld,
  type Song,
  validation,
} from '../support/catalogue';

const w = playlistWorld();

describe('GET /v1/playlists/{playlistId}/songs', () => {
  it('lists the songs in playlist order, paged', async () => {
    const order = [w.songs[3]!, w.songs[1]!, w.songs[2]!];
    const playlist = await makePlaylist(w.api, w.owner, { songIds: order.map((s) => s.id) });
    const res = await w.api.request('GET', `/playlists/${playlist.id}/songs?limit=2`, {
      token: w.owner.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [order[0], order[1]], pagination: { page: 1, limit: 2, total: 3 } });
    const page2 = await w.api.request('GET', `/playlists/${playlist.id}/songs?limit=2&page=2`, {
      token: w.owner.token,
    });
    expect(page2.body.data).toEqual([order[2]]);
    const past = await w.api.request('GET', `/playlists/${playlist.id}/songs?page=5`, {
      token: w.owner.token,
    });
    expect(past.body).toEqual({ data: [], pagination: { page: 5, limit: 20, total: 3 } });
  });

  it('follows the playlist’s read rules: 403 private, 200 public, 404 unknown, 400 bad paging', async () => {
    const secret = await makePlaylist(w.api, w.owner, { songIds: w.ids(1) });
    expect(
      (await w.api.request('GET', `/playlists/${secret.id}/songs`, { token: w.other.token })).status,
    ).toBe(403);
    const open = await makePlaylist(w.api, w.owner, { songIds: w.ids(1), isPublic: true });
    expect((await w.api.request('GET', `/playlists/${open.id}/songs`, { token: w.other.token })).status).toBe(
      200,
    );
    expect(
      (await w.api.request('GET', `/playlists/${randomUUID()}/songs`, { token: w.owner.token })).status,
    ).toBe(404);
    expect(
      (await w.api.request('GET', `/playlists/${open.id}/songs?page=0`, { token: w.owner.token })).status,
    ).toBe(400);
  });
});

describe('POST /v1/playlists/{playlistId}/songs', () => {
  it('appends a song with 204; adding it again is 409', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: [w.songs[1]!.id] });
    const res = await w.api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: w.owner.token,
      body: { songId: w.songs[0]!.id },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await w.api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: w.owner.token });
    expect(after.body).toMatchObject({ songIds: [w.songs[1]!.id, w.songs[0]!.id], songCount: 2 });
    expect(after.body.updatedAt >= playlist.updatedAt).toBe(true);
    const again = await w.api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: w.owner.token,
      body: { songId: w.songs[0]!.id },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(error('CONFLICT'));
  });

  it('answers 422 on songId for unknown, malformed or missing songs', async () => {
    const playlist = await makePlaylist(w.api, w.owner);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ songId: randomUUID() }, ['songId']],
      [{ songId: 'nope' }, ['songId']],
      [{}, ['songId']],
      [{ songId: w.songs[0]!.id, position: 1 }, ['position']],
      [{ songId: w.songs[0]!.id, playlistId: playlist.id }, ['playlistId']],
    ];
    for (const [body, fields] of cases) {
      const res = await w.api.request('POST', `/playlists/${playlist.id}/songs`, {
        token: w.owner.token,
        body,
      });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
  });

  it('refuses everyone but the owner and admins; unknown playlists are 404', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { isPublic: true });
    const denied = await w.api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: w.other.token,
      body: { songId: w.songs[0]!.id },
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(error('FORBIDDEN'));
    const byAdmin = await w.api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: w.admin.token,
      body: { songId: w.songs[0]!.id },
    });
    expect(byAdmin.status).toBe(204);
    const missing = await w.api.request('POST', `/playlists/${randomUUID()}/songs`, {
      token: w.owner.token,
      body: { songId: w.songs[0]!.id },
    });
    expect(missing.status).toBe(404);
  });

  it('of two concurrent adds of one song, exactly one succeeds and the other is 409', async () => {
    for (let round = 0; round < 3; round++) {
      const playlist = await makePlaylist(w.api, w.owner);
      const add = () =>
        w.api.request('POST', `/playlists/${playlist.id}/songs`, {
          token: w.owner.token,
          body: { songId: w.songs[0]!.id },
        });
      const results = await Promise.all([add(), add()]);
      expect(results.map((r) => r.status).sort()).toEqual([204, 409]);
      const after = await w.api.request<Playlist>('GET', `/playlists/${playlist.id}`, {
        token: w.owner.token,
      });
      expect(after.body).toMatchObject({ songIds: [w.songs[0]!.id], songCount: 1 });
    }
  });

  it('takes 10 concurrent adds of different songs, all at distinct positions', async () => {
    const extra: Song[] = [];
    for (let i = 0; i < 10; i++) extra.push(await makeSong(w.api, w.admin));
    const playlist = await makePlaylist(w.api, w.owner);
    const results = await Promise.all(
      extra.map((song) =>
        w.api.request('POST', `/playlists/${playlist.id}/songs`, {
          token: w.owner.token,
          body: { songId: song.id },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(204));
    const after = await w.api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: w.owner.token });
    expect(after.body.songCount).toBe(10);
    expect([...after.body.songIds].sort()).toEqual(extra.map((s) => s.id).sort());
    const rows = await w.api.database.db
      .selectFrom('playlist_songs')
      .select('position')
      .where('playlist_id', '=', playlist.id)
      .execute();
    expect(new Set(rows.map((r) => r.position)).size).toBe(10);
  });
});

describe('DELETE /v1/playlists/{playlistId}/songs/{songId}', () => {
  it('removes a song with 204; the song stays; removing it again is 404', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: w.ids(3) });
    const res = await w.api.request('DELETE', `/playlists/${playlist.id}/songs/${w.songs[1]!.id}`, {
      token: w.owner.token,
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await w.api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: w.owner.token });
    expect(after.body).toMatchObject({ songIds: [w.songs[0]!.id, w.songs[2]!.id], songCount: 2 });
    expect((await w.api.request('GET', `/songs/${w.songs[1]!.id}`, { token: w.owner.token })).status).toBe(
      200,
    );
    const again = await w.api.request('DELETE', `/playlists/${playlist.id}/songs/${w.songs[1]!.id}`, {
      token: w.owner.token,
    });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error('NOT_FOUND'));
    // A song added after a removal goes last.
    await w.api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: w.owner.token,
      body: { songId: w.songs[1]!.id },
    });
    const readded = await w.api.request<Playlist>('GET', `/playlists/${playlist.id}`, {
      token: w.owner.token,
    });
    expect(readded.body.songIds).toEqual([w.songs[0]!.id, w.songs[2]!.id, w.songs[1]!.id]);
  });

  it('answers 403 to non-owners and 404 for unknown playlists or songs', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: w.ids(1), isPublic: true });
    const denied = await w.api.request('DELETE', `/playlists/${playlist.id}/songs/${w.songs[0]!.id}`, {
      token: w.other.token,
    });
    expect(denied.status).toBe(403);
    for (const path of [
      `/playlists/${randomUUID()}/songs/${w.songs[0]!.id}`,
      `/playlists/${playlist.id}/songs/${randomUUID()}`,
      `/playlists/${playlist.id}/songs/nope`,
    ]) {
      expect((await w.api.request('DELETE', path, { token: w.owner.token })).status, path).toBe(404);
    }
    expect(
      (
        await w.api.request('DELETE', `/playlists/${playlist.id}/songs/${w.songs[0]!.id}`, {
          token: w.admin.token,
        })
      ).status,
    ).toBe(204);
  });
});
