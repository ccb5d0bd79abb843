import { sql } from 'kysely';
import { likePrefix } from '../like';
import type { Db, SongRow, SongsTable } from '../schema';
import { statement } from '../sql';
import { type OrderKey, orderColumns, orderTerms } from './order';
import { foldTerm, type SearchTerm } from './search-terms';
import {
  BY_TITLE,
  filteredSongs,
  indexedPairs,
  type SongFilters,
  type SongSortColumn,
  songOrderSelections,
} from './song-filters';

export { BY_RELEVANCE, type SongFilters, type SongSortColumn } from './song-filters';
export { listSongIdsAfter } from './song-keyset';

import { countRows } from './row-counts';

export type NewSong = Omit<SongRow, 'created_at' | 'updated_at'>;
export type SongUpdate = Partial<
  Pick<SongsTable, 'title' | 'album' | 'genre' | 'duration' | 'release_year' | 'isrc' | 'external_id'>
>;

/** A song with its artists' ids in link order. */
export interface SongWithArtists extends SongRow {
  artist_ids: string[];
}

/** A page of a song list: its window and its order (by title when `sort` is empty or omitted). */
export interface SongPageArgs {
  sort?: readonly OrderKey<SongSortColumn>[] | undefined;
  limit: number;
  offset: number;
}

/** The columns of a song row (not `search_text`, which only search reads). */
const SONG_COLUMNS = [
  'songs.id',
  'songs.title',
  'songs.album',
  'songs.genre',
  'songs.duration',
  'songs.release_year',
  'songs.isrc',
  'songs.external_id',
  'songs.created_at',
  'songs.updated_at',
] as const;

/**
 * The songs named by `ids`, each with its artist ids (in `song_artists.position` order), in the
 * order of `ids`; unknown ids are left out. One query: every place that returns a song uses it.
 */
export async function findSongsWithArtists(db: Db, ids: readonly string[]): Promise<SongWithArtists[]> {
  if (ids.length === 0) return [];
  const { rows } = await songsWithArtistsStatement.run(db, { ids });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Songs with their artist ids (`findSongsWithArtists`'s columns), for a query to narrow. */
export const songsWithArtists = (db: Db) =>
  db
    .selectFrom('songs')
    .select(SONG_COLUMNS)
    .select((eb) =>
      sql<string[]>`coalesce(${eb
        .selectFrom('song_artists as sa')
        .select(sql<string[]>`array_agg(sa.artist_id order by sa.position, sa.artist_id)::text[]`.as('ids'))
        .whereRef('sa.song_id', '=', 'songs.id')}, '{}')`.as('artist_ids'),
    );

/** Compiled once: it runs on every song read (the song detail is the hottest operation). */
const songsWithArtistsStatement = statement((db, p: { ids: readonly string[] }) =>
  songsWithArtists(db as Db).where('songs.id', '=', sql<string>`any(${p.ids}::uuid[])`),
);

export async function findSongById(db: Db, id: string): Promise<SongWithArtists | undefined> {
  const [song] = await findSongsWithArtists(db, [id]);
  return song;
}

/** The ids among `ids` that name a song. */
export async function findExistingSongIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('songs')
    .select('id')
    .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Locks the song row for the rest of the transaction; false when it does not exist. Every
 * change to a song's representation (its fields and its artist links) takes this lock first,
 * so a write that holds it reads a representation nobody else changes until it commits.
 * `for no key update`, the lock an update takes anyway: concurrent writers of the song still
 * wait for each other, but a playlist or artist link to it (a foreign key check, a key-share
 * lock) does not, so a delete that locks the song and then its playlists cannot deadlock with
 * a playlist write that locked the playlist first.
 */
export async function lockSong(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('songs')
    .select('id')
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The query of one page of song ids (ordered by `sort`, by default by title, then id). */
function songPageQuery(db: Db, args: SongFilters & SongPageArgs) {
  let query = filteredSongs(db, args).select('songs.id');
  for (const [ref, direction] of orderTerms('songs', args.sort, BY_TITLE)) {
    query = query.orderBy(ref, direction);
  }
  return query.limit(args.limit).offset(args.offset);
}

/** The query counting every matching song. */
function songCountQuery(db: Db, filters: SongFilters) {
  return filteredSongs(db, filters).select(sql<number>`count(*)::int`.as('total'));
}

/** A page of songs by filter (a search is `searchSongIds`, whose results the songs service caches). */
export async function listSongIds(
  db: Db,
  args: Omit<SongFilters, 'search'> & SongPageArgs,
): Promise<{ ids: string[]; total: number }> {
  const filtered = Boolean(args.genre || args.artistId || args.ids || args.isrc || args.externalId);
  const [rows, total] = await Promise.all([
    songPageQuery(db, args).execute(),
    filtered
      ? songCountQuery(db, args)
          .executeTakeFirstOrThrow()
          .then((r) => r.total)
      : countRows(db, 'songs'),
  ]);
  return { ids: rows.map((r) => r.id), total };
}

/**
 * How many matches a search counts at most. Counting means visiting every match (a common word
 * matches a third of a large catalogue, and that visit is what a search costs), so beyond this a
 * search answers this number as its `total`, and its list holds at most this many songs (pages
 * past them are empty), as GitHub's search API bounds its results at the same 1,000. In title
 * order (or any column's) they are the first of all matches in that order; by relevance, the best
 * ranked of every title equal to or starting with the term and the first other matches found, up
 * to this many of each. A client that needs every match pages by cursor.
 */
export const SEARCH_TOTAL_BOUND = 1_000;

/**
 * A search's page and total from one statement: the first `SEARCH_TOTAL_BOUND + 1` matches are
 * collected once (a materialized CTE, so the plan is a scan of the trigram index, stopped at the
 * bound, whatever the term; a plain `ORDER BY title LIMIT` tempted the planner into walking the
 * whole title index for rare terms, or into sorting every match of a common one), counted, and
 * ordered. A ranked search also ranks the titles equal to or starting with the term (from the
 * title-key b-tree), which the first matches found need not hold. Exported for the index test.
 */
export function songSearchQuery(
  db: Db,
  args: Omit<SongFilters, 'search'> & SongPageArgs,
  term: SearchTerm,
  pairs: readonly string[] = [],
) {
  // The matches carry the values the order reads, and only those.
  const columns = songOrderSelections(orderColumns(args.sort, BY_TITLE), term);
  const ranked = args.sort?.some((key) => key.column === 'rank') ?? false;
  return db
    .with(
      (wb) => wb('found').materialized(),
      () =>
        filteredSongs(db, args, term, pairs)
          .select('songs.id')
          .select(columns)
          .limit(SEARCH_TOTAL_BOUND + 1),
    )
    .with(
      (wb) => wb('matches').materialized(),
      (qb) => {
        const found = qb.selectFrom('found').selectAll();
        // A term with no words has no key to start with: every match ranks the same.
        if (!ranked || term.words.length === 0) return found;
        // A title starting with the term's key holds each of its runs, so the search's own
        // condition is left out here: with it, the planner weighed the trigram index against the
        // title b-tree, and chose to read every song holding "dre" and sort them, not the first
        // thousand titles of the b-tree's range.
        const starting = filteredSongs(db, args)
          .select('songs.id')
          .select(columns)
          .where('songs.title_key', 'like', likePrefix(term.key))
          .orderBy('songs.title_key')
          .limit(SEARCH_TOTAL_BOUND);
        return found.union(db.selectFrom(starting.as('starting')).selectAll());
      },
    )
    .selectNoFrom((eb) => {
      let pageIds = eb.selectFrom('matches').select('matches.id');
      for (const [ref, direction] of orderTerms('matches', args.sort, BY_TITLE)) {
        pageIds = pageIds.orderBy(ref, direction);
      }
      const window = Math.max(0, Math.min(args.limit, SEARCH_TOTAL_BOUND - args.offset));
      return [
        eb.selectFrom('found').select(sql<number>`count(*)::int`.as('n')).as('total'),
        sql<string[]>`array(${pageIds.limit(window).offset(args.offset)})::text[]`.as('ids'),
      ];
    });
}

/** The catalogue's version: every committed change to songs, artists or their links moves it on. */
export async function readCatalogueVersion(db: Db): Promise<string> {
  // As text: a bigint, which pg gives as a string and PGlite as a number.
  const { version } = await db
    .selectFrom('catalogue_version')
    .select(sql<string>`version::text`.as('version'))
    .executeTakeFirstOrThrow();
  return version;
}

/**
 * A search's page and total (exact up to `SEARCH_TOTAL_BOUND`, then that number), with the
 * catalogue version they were computed at (read in the same statement, so in the same snapshot):
 * a cache of search results keeps a result while that version is current.
 */
export async function searchSongIds(
  db: Db,
  args: SongFilters & SongPageArgs & { search: string },
): Promise<{ version: string; ids: string[]; total: number }> {
  const term = await foldTerm(db, args.search);
  const pairs = await indexedPairs(db, term);
  const run = async (trx: Db) => {
    // The first matches of a common term come from a sequential scan cut short, which must start
    // at the table's first page and run in one process, so that every page of the result is cut
    // from the same matches: no scan joins another one already under way (synchronized scans),
    // no parallel workers. And a plan made for this term's patterns: a plan kept for the
    // statement (PostgreSQL's choice after five runs) is made without seeing them, so it cannot
    // tell a word a third of the catalogue holds (scan the table, stop at the bound) from a rare
    // one (the trigram index), nor use the title b-tree for a ranked search's titles starting
    // with the term. For this transaction only.
    await sql`select set_config('synchronize_seqscans', 'off', true),
      set_config('max_parallel_workers_per_gather', '0', true),
      set_config('plan_cache_mode', 'force_custom_plan', true)`.execute(trx);
    return songSearchQuery(trx, args, term, pairs)
      .select(sql<string>`(select version::text from catalogue_version)`.as('version'))
      .executeTakeFirstOrThrow();
  };
  const row = db.isTransaction ? await run(db) : await db.transaction().execute(run);
  return { version: row.version, ids: row.ids, total: Math.min(Number(row.total ?? 0), SEARCH_TOTAL_BOUND) };
}

export async function insertSong(db: Db, song: NewSong): Promise<SongRow> {
  return db.insertInto('songs').values(song).returning(SONG_COLUMNS).executeTakeFirstOrThrow();
}

export async function updateSong(db: Db, id: string, patch: SongUpdate): Promise<SongRow | undefined> {
  return db
    .updateTable('songs')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .returning(SONG_COLUMNS)
    .executeTakeFirst();
}

/** Replaces the song's artists with `artistIds`, in that order. */
export async function setSongArtists(
  db: Db,
  songId: string,
  artistIds: readonly string[],
  options: { fresh?: boolean } = {},
): Promise<void> {
  // A song just made has no links to replace.
  if (!options.fresh) await db.deleteFrom('song_artists').where('song_id', '=', songId).execute();
  if (artistIds.length === 0) return;
  await db
    .insertInto('song_artists')
    .values(artistIds.map((artistId, position) => ({ song_id: songId, artist_id: artistId, position })))
    .execute();
}

/**
 * Links the artist to the song after its current artists; false when already linked.
 * Callers lock the song first (`lockSong`) so concurrent links get distinct positions.
 */
export async function linkSongArtist(db: Db, args: { songId: string; artistId: string }): Promise<boolean> {
  const result = await db
    .insertInto('song_artists')
    .columns(['song_id', 'artist_id', 'position'])
    .expression((eb) =>
      eb
        .selectFrom('song_artists')
        .select([
          sql<string>`${args.songId}::uuid`.as('song_id'),
          sql<string>`${args.artistId}::uuid`.as('artist_id'),
          sql<number>`coalesce(max(position) + 1, 0)`.as('position'),
        ])
        .where('song_id', '=', args.songId),
    )
    .onConflict((oc) => oc.columns(['song_id', 'artist_id']).doNothing())
    .executeTakeFirst();
  const linked = (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  if (linked) await touchSong(db, args.songId);
  return linked;
}

/** False when they were not linked. */
export async function unlinkSongArtist(db: Db, args: { songId: string; artistId: string }): Promise<boolean> {
  const result = await db
    .deleteFrom('song_artists')
    .where('song_id', '=', args.songId)
    .where('artist_id', '=', args.artistId)
    .executeTakeFirst();
  const unlinked = result.numDeletedRows > 0n;
  if (unlinked) await touchSong(db, args.songId);
  return unlinked;
}

async function touchSong(db: Db, id: string): Promise<void> {
  await db.updateTable('songs').set({ updated_at: new Date() }).where('id', '=', id).execute();
}

/** Deletes the song; it leaves every playlist and artist link (cascade). */
export async function deleteSong(db: Db, id: string): Promise<boolean> {
  // The playlists it leaves change (their songIds): they count as modified.
  await db
    .updateTable('playlists')
    .set({ updated_at: new Date() })
    .where('id', 'in', (eb) =>
      eb.selectFrom('playlist_songs').select('playlist_id').where('song_id', '=', id),
    )
    .execute();
  const result = await db.deleteFrom('songs').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
