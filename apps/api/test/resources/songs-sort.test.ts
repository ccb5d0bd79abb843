import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Artist,
  catalogueWorld,
  error,
  makeArtist,
  makeSong,
  type Song,
  tag,
} from '../support/catalogue';

const w = catalogueWorld();

type Key = { field: keyof Song; descending: boolean };

const parse = (sort: string): Key[] =>
  sort.split(',').map((part) => ({
    field: part.replace(/^-/, '') as keyof Song,
    descending: part.startsWith('-'),
  }));

/**
 * The contract's order, computed here: the keys, then the id; a missing album or year is
 * greater than any value (last ascending, first descending). The test's values are plain
 * ASCII with one letter of difference, so any collation orders them alike.
 */
function expected(songs: Song[], sort: string): string[] {
  const keys = parse(sort);
  const compare = (a: Song, b: Song): number => {
    for (const { field, descending } of keys) {
      const [x, y] = [a[field], b[field]];
      if (x === y) continue;
      const order = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return descending ? -order : order;
    }
    return a.id < b.id ? -1 : 1;
  };
  return [...songs].sort(compare).map((s) => s.id);
}

let t: string;
let artist: Artist;
let songs: Song[];

beforeAll(async () => {
  t = tag();
  artist = await makeArtist(w.api, w.admin);
  const rows = [
    { title: `${t} b`, album: 'zeta', releaseYear: 1999, duration: 300 },
    { title: `${t} a`, album: null, releaseYear: 2005, duration: 100 },
    { title: `${t} c`, album: 'alpha', releaseYear: null, duration: 200 },
    { title: `${t} a`, album: 'alpha', releaseYear: 1999, duration: 100 },
    { title: `${t} d`, album: null, releaseYear: null, duration: 300 },
  ];
  for (const row of rows) await makeSong(w.api, w.admin, { ...row, artistIds: [artist.id] });
  // Creation times of their own (two alike, for the tie), not the moments the requests ran.
  const ids = (await list(`artistId=${artist.id}`)).body.data.map((s) => s.id);
  const times = ['2021-03-01', '2021-01-01', '2021-02-01', '2021-01-01', '2020-12-01'];
  for (const [i, id] of ids.entries()) {
    // Never written by the API, so not by Kysely's table types either: a plain statement.
    const createdAt = new Date(`${times[i]}T00:00:00Z`);
    await sql`update songs set created_at = ${createdAt} where id = ${id}`.execute(w.api.database.db);
  }
  songs = (await list(`artistId=${artist.id}`)).body.data;
});

const list = (query: string) =>
  w.api.request<{ data: Song[]; pagination: { total: number } }>('GET', `/songs?${query}`, {
    token: w.user.token,
  });

const SORTS = [
  'title',
  '-title',
  'album',
  '-album',
  'releaseYear',
  '-releaseYear',
  'duration,-title',
  '-duration,releaseYear',
  'createdAt',
  '-createdAt',
  'album,-releaseYear,title',
];

describe('GET /v1/songs?sort', () => {
  it('orders by the given fields, then id, with and without a search, on every page', async () => {
    expect(songs).toHaveLength(5);
    for (const sort of SORTS) {
      const want = expected(songs, sort);
      for (const filter of [`artistId=${artist.id}`, `search=${t}`, `search=${t}&artistId=${artist.id}`]) {
        const whole = await list(`${filter}&sort=${encodeURIComponent(sort)}`);
        expect(whole.status).toBe(200);
        expect(
          whole.body.data.map((s) => s.id),
          `${filter} sort=${sort}`,
        ).toEqual(want);
        const paged: string[] = [];
        for (let page = 1; page <= 3; page++) {
          const res = await list(`${filter}&sort=${encodeURIComponent(sort)}&limit=2&page=${page}`);
          expect(res.body.pagination.total).toBe(5);
          paged.push(...res.body.data.map((s) => s.id));
        }
        expect(paged, `${filter} sort=${sort}, paged`).toEqual(want);
      }
    }
  });

  it('keeps the default order (title, then id) without sort', async () => {
    const want = expected(songs, 'title');
    expect((await list(`artistId=${artist.id}`)).body.data.map((s) => s.id)).toEqual(want);
    expect((await list(`search=${t}`)).body.data.map((s) => s.id)).toEqual(want);
  });

  it('puts songs without an album or year last ascending and first descending', async () => {
    const years = (await list(`artistId=${artist.id}&sort=releaseYear`)).body.data.map((s) => s.releaseYear);
    expect(years).toEqual([1999, 1999, 2005, null, null]);
    const albums = (await list(`search=${t}&sort=-album`)).body.data.map((s) => s.album);
    expect(albums).toEqual([null, null, 'zeta', 'alpha', 'alpha']);
  });

  it('answers 400 for an unknown, repeated or empty sort field, search or not', async () => {
    for (const sort of [
      'genre',
      'title,title',
      'title,-title',
      'artistIds',
      '',
      ',title',
      'Title',
      '--title',
    ]) {
      for (const filter of ['', `search=${t}&`]) {
        const res = await list(`${filter}sort=${encodeURIComponent(sort)}`);
        expect(res.status, `sort=${sort}`).toBe(400);
        expect(res.body).toEqual(error('BAD_REQUEST'));
      }
    }
  });
});
