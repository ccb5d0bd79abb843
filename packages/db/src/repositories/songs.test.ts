import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, songRow, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { deleteArtist, insertArtist, updateArtist } from './artists';
import { keysetSelections, pageAfter } from './order';
import { foldTerm } from './search-terms';
import { BY_TITLE, filteredSongs, indexedPairs } from './song-filters';
import {
  findSongsWithArtists,
  insertSong,
  SEARCH_TOTAL_BOUND,
  searchSongIds,
  setSongArtists,
  songSearchQuery,
  unlinkSongArtist,
  updateSong,
} from './songs';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

beforeAll(async () => {
  // 100k songs and 1k artists, each song linked to one artist: enough rows that the planner
  // prefers an index whenever one can serve the query. On a server, seeded over a plain
  // connection of its own: on a busy machine the seeding alone can outlast the API's timeouts.
  // The three tables' indexes (but those behind constraints) are dropped for the load and built
  // again after it: building a trigram index over 100k rows at once is several times quicker
  // than growing it row by row (on PGlite the whole setup took over four minutes on a busy day, now under three).
  const indexes = `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i
    where i.indrelid = any (array['songs'::regclass, 'artists'::regclass, 'song_artists'::regclass])
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`;
  const load = [
    `insert into artists (id, name)
      select gen_random_uuid(), 'Artist ' || md5('artist' || i) from generate_series(1, 1000) i`,
    `insert into songs (id, title, album, genre, duration, release_year)
      select gen_random_uuid(), 'Track ' || md5('title' || i), 'Album ' || md5('album' || (i % 5000)),
        (array['rock', 'pop', 'jazz', 'folk', 'soul'])[i % 5 + 1], 60 + i % 300, 1960 + i % 60
      from generate_series(1, 100000) i`,
    `insert into song_artists (song_id, artist_id, position)
      select s.id, a.id, 0 from
        (select id, row_number() over (order by id) % 1000 as k from songs) s
        join (select id, row_number() over (order by id) - 1 as k from artists) a using (k)`,
  ];
  async function seed(run: (text: string) => Promise<Array<Record<string, string>>>) {
    const found = (await run(indexes)) as Array<{ name: string; def: string }>;
    for (const { name } of found) await run(`drop index ${name}`);
    for (const text of load) await run(text);
    for (const { def } of found) await run(def);
    await run('analyze');
  }
  if (database.directUrl) {
    const client = new pg.Client({ connectionString: database.directUrl });
    await client.connect();
    try {
      await seed(async (text) => (await client.query(text)).rows);
    } finally {
      await client.end();
    }
  } else {
    await seed(async (text) => (await sql.raw<Record<string, string>>(text).execute(database.db)).rows);
  }
}, 480_000);

async function plan(query: { compile(): CompiledQuery }): Promise<string> {
  const compiled = query.compile();
  const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': string }>(
    CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
  );
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe(`song search on 100k songs (${process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'embedded'})`, () => {
  const term = (i: number, what: string) => sql<string>`substr(md5(${`${what}${i}`}), 3, 10)`;

  it('uses the trigram index, never a scan of songs, for rare and common terms', async () => {
    const { rows } = await sql<{ t: string }>`select ${term(4242, 'title')} as t`.execute(database.db);
    const search = rows[0]!.t;
    // A title (1 song), an album (20 songs), a few artists (~400 songs).
    const { rows: common } = await sql<{ album: string }>`select album from songs limit 1`.execute(
      database.db,
    );
    const { rows: artist } = await sql<{ name: string }>`select name from artists limit 1`.execute(
      database.db,
    );
    // A title, an album, and a fragment of an artist's name (100 songs each).
    for (const text of [search, common[0]!.album, artist[0]!.name.slice(-6)]) {
      const page = await plan(
        songSearchQuery(database.db, { limit: 20, offset: 0 }, await foldTerm(database.db, text)),
      );
      expect(page, text).not.toMatch(/Seq Scan on songs|Index Scan using songs_title_id_idx/);
      expect(page, text).toMatch(/Bitmap Index Scan on songs_search_text_trgm_idx/);
    }

    const found = await searchSongIds(database.db, { search: search.toUpperCase(), limit: 20, offset: 0 });
    expect(found.total).toBe(1);
    const [song] = await findSongsWithArtists(database.db, found.ids);
    expect(song?.title).toContain(search);
    expect(song?.artist_ids).toHaveLength(1);
  });

  it('finds a run of two characters through the pairs index, alone or with other words', async () => {
    // "zq" is in no seeded song; three titles hold it, two at the start of a word, one across two
    // words ("Oz Quartet": compact "ozquartet"), and one song holds it only across two fields
    // (title "Zz", album "Qq": "zz qq", no pair spans the space between them), which does not match.
    const ids: string[] = [];
    for (const [title, album] of [
      ['Zq Track', 'One'],
      ['Track Zqx', null],
      ['Oz Quartet', 'Track'],
      ['Zz', 'Qq Track'],
    ] as const) {
      const song = await insertSong(database.db, songRow(title, { album }));
      ids.push(song.id);
    }
    await sql`analyze songs`.execute(database.db);
    try {
      // With a rare word beside it ("one": a few rows), the trigram index alone may serve.
      for (const [text, expected, byPairs] of [
        ['zq', ids.slice(0, 3), true],
        ['ZQ track', ids.slice(0, 3), true],
        ['z q', ids.slice(0, 3), true],
        ['zq one', ids.slice(0, 1), false],
      ] as const) {
        const folded = await foldTerm(database.db, text);
        const pairs = await indexedPairs(database.db, folded);
        expect(pairs, text).toEqual(['zq']);
        const page = await plan(songSearchQuery(database.db, { limit: 20, offset: 0 }, folded, pairs));
        expect(page, text).not.toMatch(/Seq Scan on songs/);
        if (byPairs) expect(page, text).toMatch(/Bitmap Index Scan on songs_search_pairs_idx/);
        const found = await searchSongIds(database.db, { search: text, limit: 20, offset: 0 });
        expect([...found.ids].sort(), text).toEqual([...expected].sort());
        expect(found.total, text).toBe(expected.length);
      }
      // "tr" (every seeded title's "track") is left to the scan: listing all its songs costs more.
      expect(await indexedPairs(database.db, await foldTerm(database.db, 'tr'))).toEqual([]);
    } finally {
      await sql`delete from songs where id = any(${ids}::uuid[])`.execute(database.db);
    }
  });

  it('bounds a huge search at SEARCH_TOTAL_BOUND matches, paged in title order', async () => {
    // Every seeded title holds the word "track": 100k matches, of which the bound's are listed.
    const pages: string[] = [];
    for (let offset = 0; offset < SEARCH_TOTAL_BOUND; offset += 100) {
      const page = await searchSongIds(database.db, { search: 'TRACK', limit: 100, offset });
      expect(page.total).toBe(SEARCH_TOTAL_BOUND);
      expect(page.ids).toHaveLength(100);
      pages.push(...page.ids);
    }
    expect(new Set(pages).size).toBe(SEARCH_TOTAL_BOUND);
    const { rows } = await sql<{ id: string }>`
      select id from songs where id = any(${pages}::uuid[]) and title ilike '%track%'
      order by title, id`.execute(database.db);
    expect(pages).toEqual(rows.map((r) => r.id));
    const last = await searchSongIds(database.db, {
      search: 'track',
      limit: 20,
      offset: SEARCH_TOTAL_BOUND - 5,
    });
    expect(last.ids).toEqual(pages.slice(-5));
    const past = await searchSongIds(database.db, { search: 'track', limit: 20, offset: SEARCH_TOTAL_BOUND });
    expect(past).toMatchObject({ ids: [], total: SEARCH_TOTAL_BOUND });
  });

  it('finds songs by an artist name through the same query', async () => {
    const { rows } = await sql<{ t: string }>`select ${term(7, 'artist')} as t`.execute(database.db);
    const found = await searchSongIds(database.db, { search: rows[0]!.t, limit: 100, offset: 0 });
    expect(found.total).toBe(100);
    expect(found.ids).toHaveLength(100);
  });

  it('matches LIKE metacharacters literally, as punctuation: separators within words, literal alone', async () => {
    const artist = await insertArtist(database.db, { id: uuidv7(), name: 'Meta', bio: null, user_id: null });
    const titles = ['100% pure', '1000 pure', 'snake_case', 'snakeXcase', 'back\\slash', 'backslash'];
    const ids: string[] = [];
    for (const title of titles) {
      const song = await insertSong(database.db, songRow(title));
      await setSongArtists(database.db, song.id, [artist.id]);
      ids.push(song.id);
    }
    const search = async (text: string) =>
      (await searchSongIds(database.db, { search: text, artistId: artist.id, limit: 10, offset: 0 })).ids;
    // Between letters and digits they separate words: "0%" is the word "0", "e_c" the words "e", "c".
    expect(await search('0%')).toEqual(expect.arrayContaining([ids[0], ids[1]]));
    expect(await search('snake_case')).toEqual(expect.arrayContaining([ids[2]]));
    expect(await search('back\\slash')).toEqual(expect.arrayContaining([ids[4], ids[5]]));
    // Alone, they are what is looked for, never a wildcard.
    expect(await search('%')).toEqual([ids[0]]);
    expect(await search('_')).toEqual([ids[2]]);
    expect(await search('\\')).toEqual([ids[4]]);
  });

  it('keeps the searchable text true to titles, albums, links and artist names', async () => {
    const artist = await insertArtist(database.db, {
      id: uuidv7(),
      name: 'Quuxband',
      bio: null,
      user_id: null,
    });
    const other = await insertArtist(database.db, {
      id: uuidv7(),
      name: 'Zorblatt',
      bio: null,
      user_id: null,
    });
    const song = await insertSong(database.db, songRow('Glimmerfold', { album: 'Wobbletide' }));
    const find = async (text: string) =>
      (await searchSongIds(database.db, { search: text, limit: 10, offset: 0 })).ids.includes(song.id);
    expect(await find('glimmerFOLD')).toBe(true);
    expect(await find('wobbletide')).toBe(true);
    expect(await find('quuxband')).toBe(false);

    await setSongArtists(database.db, song.id, [artist.id, other.id]);
    expect(await find('quuxband')).toBe(true);
    expect(await find('zorblatt')).toBe(true);
    // Fields never run into each other (words may come from different fields).
    expect(await find('foldwobble')).toBe(false);
    expect(await find('wobbletide glimmerfold')).toBe(true);

    await updateArtist(database.db, artist.id, { name: 'Frobnica' });
    expect(await find('quuxband')).toBe(false);
    expect(await find('frobnica')).toBe(true);

    await unlinkSongArtist(database.db, { songId: song.id, artistId: other.id });
    expect(await find('zorblatt')).toBe(false);
    await deleteArtist(database.db, artist.id);
    expect(await find('frobnica')).toBe(false);

    await updateSong(database.db, song.id, { title: 'Shimmerfold', album: null });
    expect(await find('glimmerfold')).toBe(false);
    expect(await find('wobbletide')).toBe(false);
    expect(await find('shimmerfold')).toBe(true);
    const page = await searchSongIds(database.db, { search: 'shimmerfold', limit: 10, offset: 0 });
    expect(page).toEqual({ version: expect.any(String), ids: [song.id], total: 1 });
  });

  it('reads a cursor page deep in the list for about what the first page costs', async () => {
    // The keyset's alternatives (an OR) cannot bound an index scan: without the plain range on the
    // first key, the page in the middle walked the 50,000 rows before it.
    const page = (after: { values: string[]; id: string } | null) =>
      filteredSongs(database.db, {})
        .select('songs.id')
        .select(keysetSelections('songs', undefined, BY_TITLE))
        .$call(pageAfter('songs', undefined, BY_TITLE, { after, limit: 20 }));
    const buffers = async (query: ReturnType<typeof page>) => {
      const compiled = query.compile();
      const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': unknown }>(
        CompiledQuery.raw(`explain (analyze, buffers, format json) ${compiled.sql}`, [
          ...compiled.parameters,
        ]),
      );
      const raw = rows[0]!['QUERY PLAN'];
      const [{ Plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [
        { Plan: Record<string, number> },
      ];
      return (Plan['Shared Hit Blocks'] ?? 0) + (Plan['Shared Read Blocks'] ?? 0);
    };
    const at = async (offset: number) => {
      const { rows } = await sql<{ title: string; id: string }>`
        select title, id::text from songs order by title, id offset ${offset} limit 1`.execute(database.db);
      return { values: [rows[0]!.title], id: rows[0]!.id };
    };
    const first = await buffers(page(await at(0)));
    const middle = await buffers(page(await at(50_000)));
    expect(middle).toBeLessThan(first * 3 + 20);
    expect(await plan(page(await at(50_000)))).toMatch(/Index Cond: \(title >= /);
  });
});
