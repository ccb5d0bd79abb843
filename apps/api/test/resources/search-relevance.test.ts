import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Artist,
  catalogueWorld,
  error,
  makeArtist,
  makePlaylist,
  makeSong,
  type Song,
  tag,
} from '../support/catalogue';

const w = catalogueWorld();

/** A fresh tag without the letters a to f, so no title word here can start it by chance. */
const uid = () => tag().replace(/[a-f]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 6));

interface Page<T> {
  data: T[];
  pagination: { page?: number; limit: number; total?: number; nextCursor?: string | null };
}

const list = <T>(collection: '/songs' | '/artists', query: string) =>
  w.api.request<Page<T>>('GET', `${collection}?${query}`, { token: w.user.token });

/** Puts each song in as many (fresh) playlists as its count says. */
async function popularity(counts: Array<[Song, number]>) {
  const most = Math.max(...counts.map(([, n]) => n));
  for (let i = 0; i < most; i++) {
    const songIds = counts.filter(([, n]) => n > i).map(([song]) => song.id);
    await makePlaylist(w.api, w.user, { songIds });
  }
}

/** Every id the list answers, page after page (`limit` a page), and the pages' metadata. */
async function byPages(collection: '/songs' | '/artists', query: string, limit: number) {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await list<{ id: string }>(collection, `${query}&limit=${limit}&page=${page}`);
    expect(res.status).toBe(200);
    if (res.body.data.length === 0) return { ids, total: res.body.pagination.total };
    ids.push(...res.body.data.map((row) => row.id));
    if (page > 20) throw new Error('too many pages');
  }
}

/** Every id the list answers, cursor after cursor. */
async function byCursor(collection: '/songs' | '/artists', query: string, limit: number) {
  const ids: string[] = [];
  let cursor = '';
  for (let i = 0; i < 20; i++) {
    const res = await list<{ id: string }>(
      collection,
      `${query}&limit=${limit}&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((row) => row.id));
    if (!res.body.pagination.nextCursor) return ids;
    cursor = res.body.pagination.nextCursor;
  }
  throw new Error('too many pages');
}

describe('GET /v1/songs?sort=relevance', () => {
  let t: string;
  let expected: string[];
  let s: Record<string, Song>;

  beforeAll(async () => {
    t = uid();
    const artist = await makeArtist(w.api, w.admin, { name: `${t} Band` });
    const make = (title: string, more: Record<string, unknown> = {}) =>
      makeSong(w.api, w.admin, { title, ...more });
    s = {
      exact: await make(t),
      exactUpper: await make(t.toUpperCase()),
      starts: await make(`${t} zebra`),
      startsWord: await make(`${t}zz`),
      startsAble: await make(`${t} Able`),
      wordA: await make(`Aardvark ${t}`),
      wordZ: await make(`Zulu ${t}ish`),
      wordM: await make(`Mid ${t}`),
      album: await make('Aaa Other', { album: t }),
      albumB1: await make('Bbb', { album: `Record ${t}` }),
      albumB2: await make('Bbb', { album: `${t}x` }),
      artistOnly: await make('Ccc', { artistIds: [artist.id] }),
    };
    await popularity([
      [s.exactUpper!, 1],
      [s.starts!, 2],
      [s.wordZ!, 3],
      [s.album!, 5],
    ]);
    const [b1, b2] = [s.albumB1!.id, s.albumB2!.id].sort();
    expected = [
      s.exactUpper!.id,
      s.exact!.id,
      s.starts!.id,
      s.startsAble!.id,
      s.startsWord!.id,
      s.wordZ!.id,
      s.wordA!.id,
      s.wordM!.id,
      s.album!.id,
      b1!,
      b2!,
      s.artistOnly!.id,
    ];
  });

  it('ranks the term itself, then titles starting with it, then a word, then other fields; each by popularity, title, id', async () => {
    const res = await list<Song>('/songs', `search=${t}&sort=relevance&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((song) => song.id)).toEqual(expected);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: expected.length });
    // The records are the songs themselves.
    expect(res.body.data[0]).toEqual(s.exactUpper);
  });

  it('ranks with the term folded (letter case, accents, punctuation)', async () => {
    const u = uid();
    const equal = await makeSong(w.api, w.admin, { title: `Café-${u}` });
    const starts = await makeSong(w.api, w.admin, { title: `Cafe ${u} Noir` });
    const word = await makeSong(w.api, w.admin, { title: `Le café ${u}` });
    await popularity([
      [starts, 2],
      [word, 4],
    ]);
    const res = await list<Song>('/songs', `search=${encodeURIComponent(`CAFE ${u}`)}&sort=relevance`);
    expect(res.body.data.map((song) => song.id)).toEqual([equal.id, starts.id, word.id]);
  });

  it('pages by page number without overlap or gap', async () => {
    const { ids, total } = await byPages('/songs', `search=${t}&sort=relevance`, 5);
    expect(ids).toEqual(expected);
    expect(total).toBe(expected.length);
  });

  it('pages by cursor without overlap or gap', async () => {
    expect(await byCursor('/songs', `search=${t}&sort=relevance`, 5)).toEqual(expected);
    expect(await byCursor('/songs', `search=${t}&sort=relevance`, 1)).toEqual(expected);
  });

  it('follows popularity as playlists change', async () => {
    const u = uid();
    const a = await makeSong(w.api, w.admin, { title: `${u} a` });
    const b = await makeSong(w.api, w.admin, { title: `${u} b` });
    const order = async () =>
      (await list<Song>('/songs', `search=${u}&sort=relevance`)).body.data.map((song) => song.id);
    expect(await order()).toEqual([a.id, b.id]);
    await makePlaylist(w.api, w.user, { songIds: [b.id] });
    expect(await order()).toEqual([b.id, a.id]);
    expect(await byCursor('/songs', `search=${u}&sort=relevance`, 1)).toEqual([b.id, a.id]);
  });
});

describe('GET /v1/artists?sort=relevance', () => {
  let t: string;
  let expected: string[];

  beforeAll(async () => {
    t = uid();
    const artist = (name: string) => makeArtist(w.api, w.admin, { name });
    const exact = await artist(t.toUpperCase());
    const band = await artist(`${t} Band`);
    const ers = await artist(`${t}ers`);
    const the = await artist(`The ${t}`);
    const mid = await artist(`X${t}`);
    const song = (a: Artist) => makeSong(w.api, w.admin, { artistIds: [a.id] });
    // `${t}ers`: two songs in one playlist (popularity 2, the sum over its songs);
    // `${t} Band`: one song in that playlist (1); `X${t}`: a song in three playlists.
    const [e1, e2, b1, m1] = [await song(ers), await song(ers), await song(band), await song(mid)];
    await makePlaylist(w.api, w.user, { songIds: [e1.id, e2.id, b1.id, m1.id] });
    await popularity([[m1, 2]]);
    expected = [exact.id, ers.id, band.id, the.id, mid.id];
  });

  it('ranks the name itself, then names starting with it, then a word, then the rest; each by popularity summed over the songs', async () => {
    const res = await list<Artist>('/artists', `search=${t}&sort=relevance&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((a) => a.id)).toEqual(expected);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: expected.length });
  });

  it('breaks ties by name, then id', async () => {
    const u = uid();
    const b = await makeArtist(w.api, w.admin, { name: `${u} b` });
    const a1 = await makeArtist(w.api, w.admin, { name: `${u} a` });
    const a2 = await makeArtist(w.api, w.admin, { name: `${u} a` });
    const res = await list<Artist>('/artists', `search=${u}&sort=relevance`);
    expect(res.body.data.map((a) => a.id)).toEqual([...[a1.id, a2.id].sort(), b.id]);
  });

  it('pages by page number and by cursor without overlap or gap', async () => {
    const { ids, total } = await byPages('/artists', `search=${t}&sort=relevance`, 2);
    expect(ids).toEqual(expected);
    expect(total).toBe(expected.length);
    expect(await byCursor('/artists', `search=${t}&sort=relevance`, 2)).toEqual(expected);
  });
});

describe('sort=relevance needs a search, alone', () => {
  it.each(['/songs', '/artists'] as const)(
    '%s: 400 on sort without a search, as any unusable sort',
    async (collection) => {
      for (const query of ['sort=relevance', 'sort=relevance&search=', 'sort=relevance&limit=5&page=1']) {
        const res = await list(collection, query);
        expect(res.status, query).toBe(400);
        expect(res.body, query).toEqual(error('BAD_REQUEST'));
        expect((res.body as unknown as { message: string }).message, query).toContain('search');
      }
    },
  );

  it.each(['/songs', '/artists'] as const)(
    '%s: 400 for relevance combined with other fields',
    async (collection) => {
      const other = collection === '/songs' ? 'title' : 'name';
      for (const sort of [`relevance,${other}`, `${other},relevance`, `relevance,-${other}`]) {
        const res = await list(collection, `search=x&sort=${sort}`);
        expect(res.status, sort).toBe(400);
      }
      expect((await list(collection, 'search=x&sort=relevance')).status).toBe(200);
    },
  );
});
