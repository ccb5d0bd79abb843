import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { catalogueWorld, error, makeArtist, makeSong, type Song } from '../support/catalogue';

const w = catalogueWorld();

describe('GET /v1/artists/{artistId}/songs', () => {
  it('lists the artist’s songs by title, then id, with paging', async () => {
    const artist = await makeArtist(w.api, w.admin);
    const titles = ['b', 'A', 'c', 'b'];
    const songs = [];
    for (const title of titles) songs.push(await makeSong(w.api, w.admin, { title, artistIds: [artist.id] }));
    await makeSong(w.api, w.admin, { title: 'not theirs' });
    const res = await w.api.request('GET', `/artists/${artist.id}/songs?limit=2`, { token: w.user.token });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 2, total: 4 });
    expect(res.body.data[0]).toEqual(songs[1]);
    const bs = songs.filter((s) => s.title === 'b').sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(res.body.data[1].id).toBe(bs[0]!.id);
    const page2 = await w.api.request('GET', `/artists/${artist.id}/songs?limit=2&page=2`, {
      token: w.user.token,
    });
    expect(page2.body.data.map((s: Song) => s.id)).toEqual([bs[1]!.id, songs[2]!.id]);
    const past = await w.api.request('GET', `/artists/${artist.id}/songs?page=9`, { token: w.user.token });
    expect(past.body).toEqual({ data: [], pagination: { page: 9, limit: 20, total: 4 } });
  });

  it('answers 404 for an unknown artist and 400 for bad paging', async () => {
    expect(
      (await w.api.request('GET', `/artists/${randomUUID()}/songs`, { token: w.user.token })).status,
    ).toBe(404);
    expect(
      (await w.api.request('GET', `/artists/${w.managed.id}/songs?limit=101`, { token: w.user.token }))
        .status,
    ).toBe(400);
  });
});

describe('POST and DELETE /v1/artists/{artistId}/songs/{songId}', () => {
  it('links a song after its current artists, idempotently, and unlinks it', async () => {
    const first = await makeArtist(w.api, w.admin);
    const second = await makeArtist(w.api, w.admin);
    const song = await makeSong(w.api, w.admin, { artistIds: [first.id] });
    const link = await w.api.request('POST', `/artists/${second.id}/songs/${song.id}`, {
      token: w.admin.token,
    });
    expect(link.status).toBe(204);
    expect(link.text).toBe('');
    expect(
      (await w.api.request('POST', `/artists/${second.id}/songs/${song.id}`, { token: w.admin.token }))
        .status,
    ).toBe(204);
    const linked = await w.api.request<Song>('GET', `/songs/${song.id}`, { token: w.user.token });
    expect(linked.body.artistIds).toEqual([first.id, second.id]);
    const listed = await w.api.request('GET', `/artists/${second.id}/songs`, { token: w.user.token });
    expect(listed.body.data.map((s: Song) => s.id)).toEqual([song.id]);

    const unlink = await w.api.request('DELETE', `/artists/${first.id}/songs/${song.id}`, {
      token: w.admin.token,
    });
    expect(unlink.status).toBe(204);
    expect(
      (await w.api.request<Song>('GET', `/songs/${song.id}`, { token: w.user.token })).body.artistIds,
    ).toEqual([second.id]);
    const again = await w.api.request('DELETE', `/artists/${first.id}/songs/${song.id}`, {
      token: w.admin.token,
    });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error('NOT_FOUND'));
  });

  it('lets the artist’s linked user manage its links; others get 403', async () => {
    // A song the manager already manages, through a second artist of theirs (version 1.2: a
    // song of somebody else cannot be claimed by linking it).
    const second = await makeArtist(w.api, w.admin, { userId: w.manager.id });
    const song = await makeSong(w.api, w.admin, { artistIds: [second.id] });
    const res = await w.api.request('POST', `/artists/${w.managed.id}/songs/${song.id}`, {
      token: w.manager.token,
    });
    expect(res.status).toBe(204);
    for (const caller of [w.user, w.otherManager]) {
      for (const method of ['POST', 'DELETE']) {
        const denied = await w.api.request(method, `/artists/${w.managed.id}/songs/${song.id}`, {
          token: caller.token,
        });
        expect(denied.status, `${method}`).toBe(403);
        expect(denied.body).toEqual(error('FORBIDDEN'));
      }
    }
    const unlink = await w.api.request('DELETE', `/artists/${w.managed.id}/songs/${song.id}`, {
      token: w.manager.token,
    });
    expect(unlink.status).toBe(204);
  });

  it('answers 404 for an unknown or malformed artist or song, even to those not allowed', async () => {
    const song = await makeSong(w.api, w.admin);
    for (const method of ['POST', 'DELETE']) {
      for (const path of [
        `/artists/${randomUUID()}/songs/${song.id}`,
        `/artists/${w.managed.id}/songs/${randomUUID()}`,
        `/artists/${w.managed.id}/songs/not-a-uuid`,
      ]) {
        for (const caller of [w.admin, w.user]) {
          const res = await w.api.request(method, path, { token: caller.token });
          expect(res.status, `${method} ${path}`).toBe(404);
        }
      }
    }
  });
});
