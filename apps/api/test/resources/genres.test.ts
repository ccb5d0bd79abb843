import { describe, expect, it } from 'vitest';
import { catalogueWorld, error, makeSong, tag } from '../support/catalogue';

const w = catalogueWorld();

interface GenreList {
  data: Array<{ name: string; songCount: number }>;
  pagination: { page: number; limit: number; total: number };
  errors?: Array<{ field: string }>;
}

const list = (query = '') =>
  w.api.request<GenreList>('GET', `/genres${query ? `?${query}` : ''}`, { token: w.user.token });

describe('GET /v1/genres', () => {
  it('lists the distinct genres in use by name, case-insensitively one, with their song counts', async () => {
    expect((await list()).body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
    const genres = ['Rock', 'rock', 'Rock', 'Jazz', 'ambient', null, ''];
    for (const genre of genres) await makeSong(w.api, w.admin, { genre });
    const res = await list();
    expect(res.status).toBe(200);
    // One genre per name regardless of case, named by its most common spelling, ordered by name
    // regardless of case; no null or empty genre.
    expect(res.body).toEqual({
      data: [
        { name: 'ambient', songCount: 1 },
        { name: 'Jazz', songCount: 1 },
        { name: 'Rock', songCount: 3 },
      ],
      pagination: { page: 1, limit: 20, total: 3 },
    });
    // Each count is what the songs list's genre filter totals.
    for (const { name, songCount } of res.body.data) {
      const songs = await w.api.request('GET', `/songs?genre=${name.toLowerCase()}`, { token: w.user.token });
      expect(songs.body.pagination.total).toBe(songCount);
    }
    // A deleted song counts no more; a genre with no songs left is gone.
    const jazz = await w.api.request('GET', '/songs?genre=jazz', { token: w.user.token });
    await w.api.request('DELETE', `/songs/${jazz.body.data[0].id}`, { token: w.admin.token });
    expect((await list()).body.data.map((g) => g.name)).toEqual(['ambient', 'Rock']);
  });

  it('keeps a song’s genre as sent, while the list names the genre by its most common spelling', async () => {
    const t = tag();
    for (let i = 0; i < 2; i++) await makeSong(w.api, w.admin, { genre: `${t} Folk` });
    const song = await makeSong(w.api, w.admin, { genre: `${t} folk` });
    expect(song.genre).toBe(`${t} folk`);
    const read = await w.api.request('GET', `/songs/${song.id}`, { token: w.user.token });
    expect(read.body.genre).toBe(`${t} folk`);
    const listed = await list(`search=${encodeURIComponent(t)}`);
    expect(listed.body.data).toEqual([{ name: `${t} Folk`, songCount: 3 }]);
  });

  it('searches folded words, punctuation alone taken literally (never as a wildcard), in NFC', async () => {
    const t = tag();
    const names = [`${t} 100%`, `${t} 1000`, `${t} a_b`, `${t} axb`, `${t} Caf\u00e9`];
    for (const genre of names) await makeSong(w.api, w.admin, { genre });
    const search = async (term: string) =>
      (await list(`search=${encodeURIComponent(term)}`)).body.data.map((g) => g.name);
    // (The order is the paging test's: here only which genres match.)
    expect((await search(t.toUpperCase())).sort()).toEqual([...names].sort());
    // Between words, punctuation separates them: "100%" is the word "100", which "1000" holds too.
    expect((await search(`${t} 100%`)).sort()).toEqual([names[0], names[1]].sort());
    expect(await search(`${t} a_b`)).toEqual(expect.arrayContaining([names[2], names[3]]));
    // Alone it is looked for as written: only the genre holding a "%".
    expect(await search('%')).toEqual([names[0]]);
    expect(await search(`${t} cafe`)).toEqual([names[4]]);
    expect(await search(`Cafe\u0301`)).toEqual([names[4]]);
    expect(await search(`${t} CAF\u00c9`)).toEqual([names[4]]);
    expect(await search(`nothing ${t}`)).toEqual([]);
  });

  it('pages by name; past the end gives [] with the true total', async () => {
    const t = tag();
    for (const genre of [`${t} c`, `${t} a`, `${t} b`]) await makeSong(w.api, w.admin, { genre });
    const pages: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list(`search=${t}&limit=1&page=${page}`);
      expect(res.body.pagination).toEqual({ page, limit: 1, total: 3 });
      pages.push(...res.body.data.map((g) => g.name));
    }
    expect(pages).toEqual([`${t} a`, `${t} b`, `${t} c`]);
    const past = await list(`search=${t}&limit=1&page=4`);
    expect(past.body).toEqual({ data: [], pagination: { page: 4, limit: 1, total: 3 } });
  });

  it('pages by cursor too, by name regardless of case, none skipped or repeated as genres come and go', async () => {
    const t = tag();
    for (const genre of [`${t} b`, `${t} D`, `${t} a`]) await makeSong(w.api, w.admin, { genre });
    const first = await list(`search=${t}&limit=2&cursor=`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((g) => g.name)).toEqual([`${t} a`, `${t} b`]);
    const { nextCursor } = first.body.pagination as unknown as { nextCursor: string };
    expect(first.body.pagination).toEqual({ limit: 2, nextCursor: expect.any(String) });
    // A genre sorting before the cursor, and one after it, arrive between the pages.
    await makeSong(w.api, w.admin, { genre: `${t} A0` });
    await makeSong(w.api, w.admin, { genre: `${t} c` });
    const second = await list(`search=${t}&limit=2&cursor=${encodeURIComponent(nextCursor)}`);
    expect(second.body.data.map((g) => g.name)).toEqual([`${t} c`, `${t} D`]);
    // The last page says so.
    expect(second.body.pagination).toEqual({ limit: 2, nextCursor: null });
    // The signature's last character changed (to another one: it may already be an "A").
    const tampered = `${nextCursor.slice(0, -1)}${nextCursor.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [tampered, 'nope']) {
      const res = await list(`cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.errors?.[0]?.field).toBe('cursor');
    }
    expect((await list('cursor=&page=1')).status).toBe(422);
  });

  it('needs a signed-in caller (401) and valid paging (400)', async () => {
    const anonymous = await w.api.request('GET', '/genres');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(error('UNAUTHORIZED'));
    for (const query of ['page=0', 'limit=101', 'limit=abc', 'page=x']) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(error('BAD_REQUEST'));
    }
    const doc = await w.api.request('GET', '/openapi.json');
    expect(doc.body.paths['/genres'].get.tags).toEqual(['genres']);
    expect(doc.body.tags.map((t: { name: string }) => t.name)).toContain('genres');
    expect(doc.body.components.schemas.GenreList).toBeDefined();
  });
});
