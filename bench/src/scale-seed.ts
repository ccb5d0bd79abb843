// The scale bench's catalogue, grown in place from one size to the next on the primary: the search
// bench's rows (search-catalogue.ts), loaded by COPY FROM STDIN (search-seed.ts's `postgresTarget`,
// pg-copy-streams), only those past the last size's; then the search indexes rebuilt, the songs
// compacted and analysed, and the replica waited for until it has replayed all of it.
import { hashPassword } from '@music/auth';
import type pg from 'pg';
import {
  artistId,
  artistRows,
  playlistId,
  playlistRows,
  playlistSongRows,
  type Sizes,
  sizesFor,
  songArtistRows,
  songId,
  songRows,
  type TableRows,
} from './search-catalogue';
import { postgresTarget, SEARCH_INDEXES } from './search-seed';
import { BENCH_PASSWORD } from './seed';
import { log } from './settings';

/**
 * The rows of `rows` whose first column, an id of the catalogue's fixed-width kinds (zero-padded hex,
 * so their text order is their number's), comes after `after`. The generator still draws the rows
 * before it, so a catalogue grown in steps holds the same songs and artists as one seeded at once.
 */
function beyond(rows: TableRows, after: string): TableRows {
  return {
    ...rows,
    rows: function* () {
      for (const row of rows.rows()) if ((row[0] as string) > after) yield row;
    },
  };
}

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

/**
 * Grows the catalogue of `client`'s (migrated) database from `from` songs (0: empty) to `to`, with
 * the other tables in the search bench's proportions (`sizesFor`). Resolves to the seconds each step
 * took, `total` among them.
 */
export async function growCatalogue(
  client: pg.Client,
  from: number,
  to: number,
): Promise<Record<string, number>> {
  const before: Sizes = from === 0 ? { songs: 0, artists: 0, users: 0, playlists: 0 } : sizesFor(from);
  const after = sizesFor(to);
  const target = postgresTarget(client);
  const times: Record<string, number> = {};
  const started = Date.now();
  const step = async (label: string, work: () => Promise<unknown>) => {
    const at = Date.now();
    await work();
    times[label] = seconds(at);
    log(`  ${label}: ${times[label]} s`);
  };
  log(`growing the catalogue from ${JSON.stringify(before)} to ${JSON.stringify(after)}`);
  // As the search bench seeds: its indexes off during the load, then built once over every row.
  const definitions = (
    await client.query<{ name: string; definition: string }>(
      'select indexname as name, indexdef as definition from pg_indexes where indexname = any($1::text[])',
      [SEARCH_INDEXES],
    )
  ).rows;
  for (const { name } of definitions) await client.query(`drop index ${name}`);
  const hash = await hashPassword(BENCH_PASSWORD);
  await step('users', () =>
    client.query(
      `insert into users (id, username, email, password_hash, role)
       select ('00000004-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'Bench user ' || i,
         'bench-user-' || i || '@example.com', $1, 'user'
       from generate_series($2::int + 1, $3::int) as i`,
      [hash, before.users, after.users],
    ),
  );
  await step('artists (COPY)', () => target.load(beyond(artistRows(after), artistId(before.artists))));
  await step('songs (COPY; title and album folded by trigger)', () =>
    target.load(beyond(songRows(after), songId(before.songs))),
  );
  await step("song_artists (COPY; trigger rewrites each song's search text)", () =>
    target.load(beyond(songArtistRows(after), songId(before.songs))),
  );
  await step('playlists (COPY)', () =>
    target.load(beyond(playlistRows(after), playlistId(before.playlists))),
  );
  await step('playlist_songs (COPY)', () =>
    target.load(beyond(playlistSongRows(after), playlistId(before.playlists))),
  );
  // The links rewrote every new song: compacted, as a catalogue grown by the API would have settled
  // (see seedSearchCatalogue), or the deep pages would read the dead versions too.
  await step('songs compacted (vacuum full)', () => client.query('vacuum full songs'));
  for (const { name, definition } of definitions) await step(`index ${name}`, () => client.query(definition));
  await step('vacuum analyze', () => client.query('vacuum analyze'));
  await step('checkpoint', () => client.query('checkpoint'));
  times.total = seconds(started);
  log(`grown to ${to} songs in ${times.total} s`);
  return times;
}

/** Waits (at most `timeoutMs`) until the replica has replayed everything the primary has written so far. */
export async function replicaCaughtUp(primary: pg.Client, replica: pg.Client, timeoutMs: number) {
  const { lsn } = (await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0]!;
  const started = Date.now();
  for (;;) {
    const { rows } = await replica.query<{ done: boolean }>(
      'select coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) as done',
      [lsn],
    );
    if (rows[0]!.done) {
      log(`replica caught up with ${lsn} in ${seconds(started)} s`);
      return;
    }
    if (Date.now() - started > timeoutMs) throw new Error(`the replica did not replay up to ${lsn} in time`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Bytes of the tables and indexes the cases read, as the catalogue is now. */
export async function catalogueBytes(client: pg.Client): Promise<Record<string, number>> {
  const { rows } = await client.query<{ name: string; bytes: string }>(
    `select relname as name, pg_total_relation_size(oid) as bytes from pg_class
     where relname in ('songs', 'artists', 'song_artists', 'playlists', 'playlist_songs', 'search_vocabulary')
     order by relname`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
}
