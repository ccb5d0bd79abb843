import { describe, expect, it } from 'vitest';
import { error, makePlaylist, type Playlist, playlistWorld } from '../support/catalogue';

/**
 * Version 1.1 over HTTP for playlists: ids in any letter case, `sort`, writes that change
 * nothing, and If-Match on every playlist write (the playlist's ETag, its songs included).
 */

const w = playlistWorld();

const get = (id: string) => w.api.request<Playlist>('GET', `/playlists/${id}`, { token: w.owner.token });

describe('upper-case ids', () => {
  it('are found on GET, PUT and DELETE /playlists/{id} and answered lower-case', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: w.ids(1) });
    const upper = playlist.id.toUpperCase();
    const read = await get(upper);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(playlist);
    const put = await w.api.request<Playlist>('PUT', `/playlists/${upper}`, {
      token: w.owner.token,
      body: { name: 'Upper' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: playlist.id, name: 'Upper', songIds: w.ids(1) });
    const removed = await w.api.request('DELETE', `/playlists/${upper}`, { token: w.owner.token });
    expect(removed.status).toBe(204);
    expect((await get(playlist.id)).status).toBe(404);
  });

  it('name songs to add (body) and to remove (path), and a userId filter', async () => {
    const playlist = await makePlaylist(w.api, w.owner);
    const upper = playlist.id.toUpperCase();
    const [first, second] = [w.songs[0]!.id, w.songs[1]!.id];
    for (const songId of [first, second]) {
      const added = await w.api.request('POST', `/playlists/${upper}/songs`, {
        token: w.owner.token,
        body: { songId: songId.toUpperCase() },
      });
      expect(added.status).toBe(204);
    }
    const again = await w.api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: w.owner.token,
      body: { songId: first.toUpperCase() },
    });
    expect(again.status).toBe(409);
    expect((await get(playlist.id)).body.songIds).toEqual([first, second]);
    const removed = await w.api.request('DELETE', `/playlists/${upper}/songs/${first.toUpperCase()}`, {
      token: w.owner.token,
    });
    expect(removed.status).toBe(204);
    expect((await get(playlist.id)).body.songIds).toEqual([second]);
    const listed = await w.api.request<{ data: Playlist[] }>(
      'GET',
      `/playlists?limit=100&userId=${w.owner.id.toUpperCase()}`,
      { token: w.owner.token },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p) => p.id)).toContain(playlist.id);
  });
});

describe('GET /v1/playlists?sort', () => {
  it('orders by name descending; unknown or repeated fields are 400', async () => {
    const me = await w.api.signUp('user');
    const b = await makePlaylist(w.api, me, { name: 'Beta' });
    const a = await makePlaylist(w.api, me, { name: 'Alpha' });
    const c = await makePlaylist(w.api, me, { name: 'Gamma' });
    const sorted = await w.api.request<{ data: Playlist[] }>('GET', '/playlists?sort=-name', {
      token: me.token,
    });
    expect(sorted.status).toBe(200);
    expect(sorted.body.data.map((p) => p.name)).toEqual([c.name, b.name, a.name]);
    const newest = await w.api.request<{ data: Playlist[] }>('GET', '/playlists?sort=-createdAt', {
      token: me.token,
    });
    expect(newest.body.data.map((p) => p.id)).toEqual([c.id, a.id, b.id]);
    for (const sort of ['title', 'name,-name', 'songCount']) {
      const bad = await w.api.request('GET', `/playlists?sort=${sort}`, { token: me.token });
      expect(bad.status, sort).toBe(400);
      expect(bad.body).toEqual(error('BAD_REQUEST'));
    }
  });
});

describe('a PUT that changes nothing', () => {
  it('keeps updatedAt and the ETag', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { name: 'Still', songIds: w.ids(2) });
    const before = await get(playlist.id);
    const etag = before.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    // Across a second boundary, so a write would show in updatedAt.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const same = await w.api.request<Playlist>('PUT', `/playlists/${playlist.id}`, {
      token: w.owner.token,
      body: { name: 'Still', songIds: w.ids(2) },
    });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(playlist);
    expect(same.headers.get('etag')).toBe(etag);
    const reordered = await w.api.request<Playlist>('PUT', `/playlists/${playlist.id}`, {
      token: w.owner.token,
      body: { name: 'Still', songIds: w.ids(2).reverse() },
    });
    expect(reordered.body.updatedAt > playlist.updatedAt).toBe(true);
    expect(reordered.headers.get('etag')).not.toBe(etag);
  });
});

describe('If-Match on playlist writes', () => {
  it('412s a stale tag after another client reordered, on every write; nothing changes', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: w.ids(3) });
    const stale = (await get(playlist.id)).headers.get('etag')!;
    const theirs = await w.api.request<Playlist>('PUT', `/playlists/${playlist.id}`, {
      token: w.admin.token,
      body: { name: playlist.name, songIds: [w.songs[2]!.id, w.songs[1]!.id, w.songs[0]!.id] },
    });
    expect(theirs.headers.get('etag')).not.toBe(stale);
    const headers = { 'if-match': stale };
    const attempts = [
      w.api.request('PUT', `/playlists/${playlist.id}`, {
        token: w.owner.token,
        headers,
        body: { name: 'Mine' },
      }),
      w.api.request('POST', `/playlists/${playlist.id}/songs`, {
        token: w.owner.token,
        headers,
        body: { songId: w.songs[3]!.id },
      }),
      w.api.request('DELETE', `/playlists/${playlist.id}/songs/${w.songs[0]!.id}`, {
        token: w.owner.token,
        headers,
      }),
      w.api.request('DELETE', `/playlists/${playlist.id}`, { token: w.owner.token, headers }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(412);
      expect(res.body).toEqual(error('PRECONDITION_FAILED'));
    }
    expect((await get(playlist.id)).body).toEqual(theirs.body);
  });

  it('writes with the current tag, and with *', async () => {
    const playlist = await makePlaylist(w.api, w.owner, { songIds: w.ids(1) });
    let etag = (await get(playlist.id)).headers.get('etag')!;
    const added = await w.api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: w.owner.token,
      headers: { 'if-match': etag },
      body: { songId: w.songs[1]!.id },
    });
    expect(added.status).toBe(204);
    const afterAdd = await get(playlist.id);
    expect(afterAdd.body.songIds).toEqual(w.ids(2));
    etag = afterAdd.headers.get('etag')!;
    const removed = await w.api.request('DELETE', `/playlists/${playlist.id}/songs/${w.songs[0]!.id}`, {
      token: w.owner.token,
      headers: { 'if-match': etag },
    });
    expect(removed.status).toBe(204);
    const put = await w.api.request<Playlist>('PUT', `/playlists/${playlist.id}`, {
      token: w.owner.token,
      headers: { 'if-match': '*' },
      body: { name: 'Starred', songIds: [w.songs[1]!.id] },
    });
    expect(put.status).toBe(200);
    const deleted = await w.api.request('DELETE', `/playlists/${playlist.id}`, {
      token: w.owner.token,
      headers: { 'if-match': put.headers.get('etag')! },
    });
    expect(deleted.status).toBe(204);
    expect((await get(playlist.id)).status).toBe(404);
  });
});
