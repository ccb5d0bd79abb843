// Loads the search bench's catalogue into a migrated database, PostgreSQL (COPY) or the embedded
// one (inserts from arrays), and times what search costs to store: the folding triggers on the
// way in, then each search index built once over the whole catalogue, and the indexes' sizes.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { hashPassword } from '@music/auth';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  artistRows,
  playlistRows,
  playlistSongRows,
  type Sizes,
  songArtistRows,
  songRows,
  type TableRows,
  userId,
} from './search-catalogue';
import { BENCH_PASSWORD } from './seed';
import { log } from './settings';

/** What seeding needs of a database: statements, and a fast way to load many rows. */
export interface SqlTarget {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  load(rows: TableRows): Promise<void>;
}

/** The indexes only search reads: built once after the load, each timed. */
export const SEARCH_INDEXES = [
  'songs_search_text_trgm_idx',
  'songs_search_words_trgm_idx',
  'songs_search_pairs_idx',
  'songs_title_key_idx',
  'songs_album_key_idx',
  'artists_name_key_idx',
  'artists_name_compact_trgm_idx',
  'artists_name_key_trgm_idx',
  'playlists_name_key_idx',
  'playlists_name_compact_trgm_idx',
  'playlists_name_key_trgm_idx',
  'search_vocabulary_word_trgm_idx',
];

/** Rows per COPY statement: each commits on its own, so no transaction holds a million trigger events. */
const COPY_ROWS = 100_000;
const INSERT_ROWS = 2_000;

const copyValue = (v: unknown) =>
  v === null || v === undefined
    ? '\\N'
    : typeof v === 'boolean'
      ? v
        ? 't'
        : 'f'
      : String(v).replace(
          /[\\\t\n\r]/g,
          (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
        );

/** PostgreSQL through `pg`: rows go in by COPY FROM STDIN, in statements of `COPY_ROWS`. */
export function postgresTarget(client: pg.Client): SqlTarget {
  return {
    query: async <R>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as R[],
    async load({ table, columns, rows }) {
      const source = rows()[Symbol.iterator]();
      let done = false;
      while (!done) {
        const lines = function* () {
          let batch: string[] = [];
          for (let n = 0; n < COPY_ROWS; n++) {
            const next = source.next();
            if (next.done) {
              done = true;
              break;
            }
            batch.push(`${next.value.map(copyValue).join('\t')}\n`);
            if (batch.length === 1000) {
              yield batch.join('');
              batch = [];
            }
          }
          if (batch.length > 0) yield batch.join('');
        };
        const copy = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
        await pipeline(Readable.from(lines()), copy);
      }
    },
  };
}

/** Any database reached by statements alone (the embedded one): rows go in as `unnest` of arrays. */
export function statementTarget(
  run: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>,
): SqlTarget {
  return {
    query: async <R>(text: string, params: unknown[] = []) => (await run(text, params)) as R[],
    async load({ table, columns, types, rows }) {
      const insert = `insert into ${table} (${columns.join(', ')})
        select * from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
      let batch: unknown[][] = columns.map(() => []);
      for (const row of rows()) {
        for (let i = 0; i < row.length; i++) batch[i]!.push(row[i]);
        if (batch[0]!.length === INSERT_ROWS) {
          await run(insert, batch);
          batch = columns.map(() => []);
        }
      }
      if (batch[0]!.length > 0) await run(insert, batch);
    },
  };
}

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

async function timed(label: string, times: Record<string, number>, work: () => Promise<unknown>) {
  const started = Date.now();
  await work();
  times[label] = seconds(started);
  log(`  ${label}: ${times[label]} s`);
}

export interface SeedFigures {
  /** Seconds per step of the load (the folding triggers run in `songs` and `song_artists`). */
  seedSeconds: Record<string, number>;
  /** Seconds to build each search index over the loaded catalogue. */
  indexBuildSeconds: Record<string, number>;
  /** Bytes of every index on songs, artists and playlists (`pg_relation_size`). */
  indexBytes: Record<string, number>;
  tableBytes: Record<string, number>;
}

/**
 * Fills a freshly migrated database. The search indexes are dropped first and built after the
 * load, one at a time and timed (as a bulk load would do, and what rebuilding each costs); the
 * triggers that fold titles, albums and artist names stay on and are part of the load's time.
 */
export async function seedSearchCatalogue(target: SqlTarget, sizes: Sizes): Promise<SeedFigures> {
  const definitions = await target.query<{ name: string; definition: string }>(
    'select indexname as name, indexdef as definition from pg_indexes where indexname = any($1::text[])',
    [SEARCH_INDEXES],
  );
  for (const { name } of definitions) await target.query(`drop index ${name}`);

  log(`seeding ${JSON.stringify(sizes)}`);
  const seedSeconds: Record<string, number> = {};
  const started = Date.now();
  const hash = await hashPassword(BENCH_PASSWORD);
  await timed('users', seedSeconds, () =>
    target.query(
      `insert into users (id, username, email, password_hash, role)
       select ('00000004-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'Bench user ' || i,
         'bench-user-' || i || '@example.com', $1, 'user'
       from generate_series(1, $2::int) as i`,
      [hash, sizes.users],
    ),
  );
  await timed('artists', seedSeconds, () => target.load(artistRows(sizes)));
  await timed('songs (title and album folded by trigger)', seedSeconds, () => target.load(songRows(sizes)));
  await timed("song_artists (trigger rewrites each song's search text)", seedSeconds, () =>
    target.load(songArtistRows(sizes)),
  );
  await timed('playlists', seedSeconds, () => target.load(playlistRows(sizes)));
  await timed('playlist_songs', seedSeconds, () => target.load(playlistSongRows(sizes)));
  // Linking each song's artists rewrote every song (its search text), and the new versions went
  // to the end of the table: its first half is empty pages, which a catalogue grown by the API
  // does not keep (later rows reuse the space freed), and a scan of the songs cut short after the first
  // thousand matches read 25,000 empty pages first. Compacted, as it would have settled.
  await timed('songs compacted (vacuum full)', seedSeconds, () => target.query('vacuum full songs'));
  seedSeconds.total = seconds(started);
  log(`seeded in ${seedSeconds.total} s (without the search indexes)`);

  const indexBuildSeconds: Record<string, number> = {};
  log('building the search indexes:');
  for (const name of SEARCH_INDEXES) {
    const definition = definitions.find((d) => d.name === name)?.definition;
    if (definition) await timed(name, indexBuildSeconds, () => target.query(definition));
  }
  indexBuildSeconds.total = Object.values(indexBuildSeconds).reduce((a, b) => a + b, 0);
  // Autovacuum would get there eventually: the visibility map lets popularity counts read
  // `playlist_songs (song_id)` alone, and the statistics give the planner the real sizes.
  await timed('vacuum analyze', seedSeconds, () => target.query('vacuum analyze'));
  // The load wrote a catalogue's worth of pages that are still only in memory. Written out now,
  // not by the checkpointer spreading its writes over the next minutes: while the searches run.
  await timed('checkpoint', seedSeconds, () => target.query('checkpoint'));
  return { seedSeconds, indexBuildSeconds, ...(await relationSizes(target)) };
}

/** A catalogue seeded by an earlier run (BENCH_SEARCH_KEEP): nothing timed, the sizes as they are now. */
export async function reusedCatalogue(target: SqlTarget): Promise<SeedFigures> {
  // A migration may have rewritten every row: the visibility map and statistics as after a seed.
  await target.query('vacuum analyze');
  return { seedSeconds: {}, indexBuildSeconds: {}, ...(await relationSizes(target)) };
}

async function relationSizes(target: SqlTarget) {
  const rows = await target.query<{ table: string; index: string; bytes: string | number }>(
    `select t.relname as table, i.relname as index, pg_relation_size(i.oid) as bytes
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
     where t.relname in ('songs', 'artists', 'playlists', 'search_starts', 'search_vocabulary')
     order by t.relname, i.relname`,
  );
  const tables = await target.query<{ table: string; bytes: string | number }>(
    `select relname as table, pg_table_size(oid) as bytes from pg_class
     where relname in ('songs', 'artists', 'playlists', 'song_artists', 'playlist_songs', 'search_starts',
       'search_vocabulary') order by relname`,
  );
  return {
    indexBytes: Object.fromEntries(rows.map((r) => [r.index, Number(r.bytes)])),
    tableBytes: Object.fromEntries(tables.map((r) => [r.table, Number(r.bytes)])),
  };
}

/** The listener the bench signs in as. */
export const BENCH_EMAIL = 'bench-user-1@example.com';
export const BENCH_USER_ID = userId(1);
