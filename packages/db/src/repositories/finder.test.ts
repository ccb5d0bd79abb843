import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/index';
import { find as findAll, finderTransaction } from './finder';
import { forgetCatalogueSizes } from './finder-bounds';

// The finder on a catalogue it takes for a large one (the row counts say a million songs, so the
// trigram stage is skipped, as it is at scale): what the b-tree stages and the vocabulary find
// alone, and what only the trigram stage adds once the counts say the catalogue is small.
const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

const ids: Record<string, string> = {};
const id = (n: number) => `018f0000-0000-7000-8000-${String(n).padStart(12, '0')}`;

beforeAll(async () => {
  const songs: Array<[string, string, string | null, string[]]> = [
    ['love', 'Love', null, []],
    ['loveSong', 'Love Song', null, []],
    ['endless', 'Endless Love', null, []],
    ['byLovers', 'Plain', null, ['lovers']],
    ['onAlbum', 'Other', 'Love Letters', []],
    ['glove', 'Glove', null, []],
    ['hoppipolla', 'Hoppípolla', 'Takk…', ['sigur']],
    ['hello', 'Hello World', null, []],
    ['zed', 'Zz Top', null, []],
    ['zedAfter', 'Z{ after', null, []],
    ['zeta', 'Ζήτα', null, []],
  ];
  const artists: Array<[string, string]> = [
    ['lovers', 'The Lovers'],
    ['sigur', 'Sigur Rós'],
  ];
  let n = 0;
  for (const [key, name] of artists) {
    ids[key] = id(++n);
    await sql`insert into artists (id, name) values (${ids[key]}, ${name})`.execute(database.db);
  }
  for (const [key, title, album, by] of songs) {
    ids[key] = id(++n);
    await sql`insert into songs (id, title, album, duration) values (${ids[key]}, ${title}, ${album}, 100)`.execute(
      database.db,
    );
    for (const artist of by) {
      await sql`insert into song_artists (song_id, artist_id, position) values (${ids[key]}, ${ids[artist]}, 0)`.execute(
        database.db,
      );
    }
  }
});

/** Makes the catalogue look large (stage 2 off) or leaves its true, small size. */
async function looksLarge(large: boolean) {
  await sql`update row_counts set total = ${large ? 1_000_000 : 10}
    where table_name in ('songs', 'artists', 'playlists')`.execute(database.db);
  forgetCatalogueSizes(database.db);
}

async function find(q: string, kind: 'songs' | 'artists' = 'songs'): Promise<string[]> {
  const found = await finderTransaction(database.db, q, async (trx, term) =>
    (await findAll(trx, term, [kind], 20, null))[kind]!.map((row) => row.id),
  );
  const names = Object.fromEntries(Object.entries(ids).map(([key, value]) => [value, key]));
  return found.map((f) => names[f]!);
}

describe(`the finder at scale, from b-trees and the vocabulary (${process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'embedded'})`, () => {
  beforeEach(() => looksLarge(true));

  it('finds exact names, names starting with the term, a word starting with it, albums and artists, in tiers', async () => {
    // Tier 3 (album "Love Letters", artist "The Lovers") by popularity, then title: Other, Plain.
    expect(await find('love')).toEqual(['love', 'loveSong', 'endless', 'onAlbum', 'byLovers']);
    expect(await find('lov')).toEqual(['love', 'loveSong', 'endless', 'onAlbum', 'byLovers']);
    expect(await find('letters')).toEqual(['onAlbum']);
  });

  it('finds a term whose words are in different names, in any order', async () => {
    expect(await find('sigur hopp')).toEqual(['hoppipolla']);
    expect(await find('hoppipolla sig')).toEqual(['hoppipolla']);
    expect(await find('ros sigur', 'artists')).toEqual(['sigur']);
  });

  it('forgives typos through the vocabulary', async () => {
    expect(await find('hallo')).toEqual(['hello']);
    expect(await find('wrld helo')).toEqual([]);
    expect(await find('world hallo')).toEqual(['hello']);
    expect(await find('hoppipola')).toEqual(['hoppipolla']);
  });

  it('leaves a match inside a word to the trigram stage, which only a small catalogue runs', async () => {
    expect(await find('ppipo')).toEqual([]);
    expect(await find('love')).not.toContain('glove');
    await looksLarge(false);
    expect(await find('ppipo')).toEqual(['hoppipolla']);
    expect(await find('love')).toEqual(['love', 'loveSong', 'endless', 'glove', 'onAlbum', 'byLovers']);
  });

  it('reads a start as a range of the key: the last character, however far up, ends it exactly', async () => {
    // "z" + 1 is "{": "zz top" is in the range for "zz", "z{ after" is not.
    expect(await find('zz')).toEqual(['zed']);
    expect(await find('z')).toEqual(['zed', 'zedAfter']);
    expect(await find('ζητ')).toEqual(['zeta']);
    expect(await find('ζήτα')).toEqual(['zeta']);
  });

  it('runs a search in one read-only transaction with one plan per statement', async () => {
    const settings = await finderTransaction(database.db, 'love', async (trx, term) => {
      const { rows } = await sql<{ mode: string; threshold: string; readOnly: string }>`
        select current_setting('plan_cache_mode') as mode,
          current_setting('pg_trgm.word_similarity_threshold') as threshold,
          current_setting('transaction_read_only') as "readOnly"`.execute(trx);
      return { ...rows[0], found: (await findAll(trx, term, ['songs'], 1, null)).songs!.length };
    });
    expect(settings).toEqual({ mode: 'force_generic_plan', threshold: '0.2', readOnly: 'on', found: 1 });
    // For that transaction only.
    const { rows } = await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(
      database.db,
    );
    expect(rows[0]?.mode).toBe('auto');
  });

  it('finds albums by a word of their name', async () => {
    expect(
      await finderTransaction(
        database.db,
        'lett',
        async (trx, term) => (await findAll(trx, term, ['albums'], 5, null)).albums,
      ),
    ).toEqual([{ name: 'Love Letters', artist_ids: [], song_count: 1 }]);
  });
});
