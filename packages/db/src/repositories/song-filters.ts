import { type AliasedRawBuilder, sql } from 'kysely';
import type { Db } from '../schema';
import type { OrderKey } from './order';
import { readCache } from './read-cache';
import { matchesTerm, relevanceTier, type SearchTerm, searchedRuns } from './search-terms';

export interface SongFilters {
  /**
   * Folded words (case, accents, letter variants, punctuation and spacing aside) each found in
   * the title, the album or an artist's name, in any order (`search-terms.ts`).
   */
  search?: string | undefined;
  /** Case-insensitive equality. */
  genre?: string | undefined;
  artistId?: string | undefined;
  /** Only these songs (one `= any(array)` on the primary key, however many). */
  ids?: readonly string[] | undefined;
  /** The song with this ISRC (as stored: 12 characters, upper case). */
  isrc?: string | undefined;
  /** The song with this external id. */
  externalId?: string | undefined;
}

/**
 * The columns a list of songs can be ordered by (the API's `sort` fields), and the two a search
 * ranks by: `rank` (the title's relevance tier for the term) and `popularity` (how many playlists
 * hold the song). Those two are computed for the matches of a search, and exist only there.
 */
export type SongSortColumn =
  | 'title'
  | 'album'
  | 'release_year'
  | 'duration'
  | 'created_at'
  | 'rank'
  | 'popularity';

/** `sort=relevance`: the title's tier, then the most popular, then by title (then id). */
export const BY_RELEVANCE: readonly OrderKey<SongSortColumn>[] = [
  { column: 'rank', descending: false },
  { column: 'popularity', descending: true },
  { column: 'title', descending: false },
];

/** How many playlists hold the song (one index-only count on `playlist_songs (song_id)`). */
export const songPopularity = sql<number>`(select count(*)::int from playlist_songs ps where ps.song_id = songs.id)`;

/** The values a search's matches carry for its order: each column, or its computed value. */
export function songOrderSelections(
  columns: readonly SongSortColumn[],
  term: SearchTerm,
): AliasedRawBuilder<unknown, string>[] {
  return columns.map((column) => {
    if (column === 'rank') return relevanceTier(sql.ref('songs.title_key'), term).as('rank');
    if (column === 'popularity') return songPopularity.as('popularity');
    return sql.ref(`songs.${column}`).as(column);
  });
}

/** A song list's order when `sort` is empty or omitted: by title (then id). */
export const BY_TITLE: readonly OrderKey<SongSortColumn>[] = [{ column: 'title', descending: false }];

/** Pairs held by at least this share of songs are not looked up in the pairs index. */
const COMMON_PAIR = 0.1;
/**
 * The term's runs of two characters worth a lookup in the index of the songs' pairs (the
 * migration 2026-11-30T10-00-search-pairs): those fewer than one song in ten holds, by the
 * statistics ANALYZE keeps of the index (a pair it does not list is rarer than any it does). A
 * common pair ("he": half the songs) is found faster by reading songs until enough match than by
 * listing its half a million songs (40 ms at a million), which the planner does not weigh right
 * when the pair sits beside a word: it listed both. With no statistics yet, every pair is looked up.
 */
export async function indexedPairs(db: Db, term: SearchTerm): Promise<string[]> {
  const pairs = searchedRuns(term).filter((run) => Array.from(run).length === 2);
  if (pairs.length === 0) return [];
  const common = await commonPairs.get(db);
  return pairs.filter((pair) => !common.has(pair));
}

/** The pairs at least `COMMON_PAIR` of songs hold, reused for a minute (they move as ANALYZE runs). */
const commonPairs = readCache(60_000, (db) =>
  sql<{ pair: string }>`
      select f.pair from pg_stats s,
        unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as f(pair, share)
      where s.schemaname = current_schema() and s.tablename = 'songs_search_pairs_idx'
        and f.pair is not null and f.share >= ${COMMON_PAIR}`
    .execute(db)
    .then(({ rows }) => new Set(rows.map((row) => row.pair))),
);

/**
 * The songs matching the filters: what a page, a count, a search and a keyset page read. `pairs`:
 * the term's runs of two characters to find through their index (`indexedPairs`).
 */
export function filteredSongs(
  db: Db,
  filters: Omit<SongFilters, 'search'>,
  term?: SearchTerm,
  pairs: readonly string[] = [],
) {
  let query = db.selectFrom('songs');
  if (term) {
    // One trigram-indexed column holding the compact title, album and artist names (see the
    // migrations 2026-11-23T10-00-song-search and 2026-11-28T10-00-search-folding).
    query = query.where(
      matchesTerm(sql.ref('songs.search_text'), term, [
        sql.ref('songs.title'),
        sql.ref('songs.album'),
        sql<string>`(select string_agg(a.name, chr(10)) from song_artists sa join artists a on a.id = sa.artist_id where sa.song_id = songs.id)`,
      ]),
    );
    // A run of two characters has no trigram: the index of the texts' pairs finds it. The
    // condition above still checks it.
    if (pairs.length > 0) {
      query = query.where(sql<boolean>`search_pairs(songs.search_text) @> ${[...pairs]}::text[]`);
    }
  }
  if (filters.genre) {
    query = query.where(sql`lower(songs.genre)`, '=', sql`lower(${filters.genre})`);
  }
  if (filters.ids) query = query.where('songs.id', '=', sql<string>`any(${[...filters.ids]}::uuid[])`);
  if (filters.isrc) query = query.where('songs.isrc', '=', filters.isrc);
  if (filters.externalId) query = query.where('songs.external_id', '=', filters.externalId);
  if (filters.artistId) {
    const artistId = filters.artistId;
    query = query.where('songs.id', 'in', (eb) =>
      eb
        .selectFrom('song_artists')
        .select('song_artists.song_id')
        .where('song_artists.artist_id', '=', artistId),
    );
  }
  return query;
}
