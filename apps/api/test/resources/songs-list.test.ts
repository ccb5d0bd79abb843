import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { catalogueWorld, makeArtist, makeSong, type Song, tag } from '../support/catalogue';

const w = catalogueWorld();

const list = (query: string, token = w.user.token) =>
  w.api.request<{ data: Song[]; pagination: { page: number; limit: number; total: number } }>(
    'GET',
    `/songs?${query}`,
    { token },
  );

describe('GET /v1/songs', () => {
  it('searches title, album and artist names case-insensitively', async () => {
    const t = tag();
    const artist = await makeArtist(w.api, w.admin, { name: `Singer ${t}Voice` });
    const byTitle = await makeSong(w.api, w.admin, { title: `a title ${t}` });
    const byAlbum = await makeSong(w.api, w.admin, { title: 'b', album: `Album ${t.toUpperCase()}` });
    const byArtist = await makeSong(w.api, w.admin, { title: 'c', artistIds: [artist.id] });
    const res = await list(`search=${t.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([byTitle, byAlbum, byArtist]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    const voice = await list(`search=${encodeURIComponent(`${t}voice`)}`);
    expect(voice.body.data.map((s) => s.id)).toEqual([byArtist.id]);
  });

  it('answers a repeated search with every change made since, through any operation', async () => {
    const t = tag();
    const search = async () => (await list(`search=${t}`)).body.data.map((s: Song) => s.id);
    const artist = await makeArtist(w.api, w.admin, { name: 'Plain name' });
    const song = await makeSong(w.api, w.admin, { title: `first ${t}` });
    expect(await search()).toEqual([song.id]);
    const other = await makeSong(w.api, w.admin, { title: 'second', artistIds: [artist.id] });
    expect(await search()).toEqual([song.id]);
    const renamed = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { name: `Renamed ${t}` },
    });
    expect(renamed.status).toBe(200);
    expect(await search()).toEqual([song.id, other.id]);
    const unlinked = await w.api.request('DELETE', `/artists/${artist.id}/songs/${other.id}`, {
      token: w.admin.token,
    });
    expect(unlinked.status).toBe(204);
    expect(await search()).toEqual([song.id]);
    expect((await w.api.request('DELETE', `/songs/${song.id}`, { token: w.admin.token })).status).toBe(204);
    expect(await search()).toEqual([]);
  });

  it('filters by genre (case-insensitive) and by artist, combined with search', async () => {
    const t = tag();
    const genre = `Genre${t}`;
    const artist = await makeArtist(w.api, w.admin);
    const one = await makeSong(w.api, w.admin, { title: `x ${t}`, genre, artistIds: [artist.id] });
    const two = await makeSong(w.api, w.admin, { title: `y ${t}`, genre: genre.toUpperCase() });
    const three = await makeSong(w.api, w.admin, { title: `z ${t}`, genre: 'Other', artistIds: [artist.id] });
    expect((await list(`genre=${genre.toLowerCase()}`)).body.data.map((s) => s.id)).toEqual([one.id, two.id]);
    expect((await list(`artistId=${artist.id}`)).body.data.map((s) => s.id)).toEqual([one.id, three.id]);
    expect((await list(`artistId=${artist.id}&genre=${genre}`)).body.data.map((s) => s.id)).toEqual([one.id]);
    expect((await list(`artistId=${artist.id}&search=z%20${t}`)).body.data.map((s) => s.id)).toEqual([
      three.id,
    ]);
    const nobody = await list(`artistId=${randomUUID()}`);
    expect(nobody.status).toBe(200);
    expect(nobody.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });

  it('pages by title, then id, stably; past the end gives [] with the true total', async () => {
    const t = tag();
    const made: Song[] = [];
    for (let i = 0; i < 5; i++) made.push(await makeSong(w.api, w.admin, { title: `same ${t}` }));
    made.push(await makeSong(w.api, w.admin, { title: `a first ${t}` }));
    const expected = [
      made[5]!.id,
      ...made
        .slice(0, 5)
        .map((s) => s.id)
        .sort(),
    ];
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list(`search=${t}&limit=2&page=${page}`);
      expect(res.body.pagination).toEqual({ page, limit: 2, total: 6 });
      seen.push(...res.body.data.map((s) => s.id));
    }
    expect(seen).toEqual(expected);
    const past = await list(`search=${t}&limit=2&page=4`);
    expect(past.body).toEqual({ data: [], pagination: { page: 4, limit: 2, total: 6 } });
    const big = await list('limit=100');
    expect(big.status).toBe(200);
    expect(big.body.pagination.limit).toBe(100);
    expect(big.body.data.length).toBe(Math.min(100, big.body.pagination.total));
  });
});
