import { sql } from 'kysely';
import { likeContains } from '../like';
import type { Db } from '../schema';
import type { OrderKey } from './order';

export interface SongFilters {
  /** Case-insensitive (PostgreSQL's `lower`) substring of the title, the album or an artist's name. */
  search?: string | undefined;
  /** Case-insensitive equality. */
  genre?: string | undefined;
  artistId?: string | undefined;
  /** Only these songs (one `= any(array)` on the primary key, however many). */
  ids?: readonly string[] | undefined;
}

/** The columns a list of songs can be ordered by (the API's `sort` fields). */
export type SongSortColumn = 'title' | 'album' | 'release_year' | 'duration' | 'created_at';

/** A song list's order when `sort` is empty or omitted: by title (then id). */
export const BY_TITLE: readonly OrderKey<SongSortColumn>[] = [{ column: 'title', descending: false }];

/** The songs matching the filters: what a page, a count, a search and a keyset page read. */
export function filteredSongs(db: Db, filters: SongFilters) {
  let query = db.selectFrom('songs');
  if (filters.search) {
    // One trigram-indexed column holding title, album and artist names (see the migration
    // 2026-11-23T10-00-song-search).
    query = query.where(sql<boolean>`songs.search_text like lower(${likeContains(filters.search)})`);
  }
  if (filters.genre) {
    query = query.where(sql`lower(songs.genre)`, '=', sql`lower(${filters.genre})`);
  }
  if (filters.ids) query = query.where('songs.id', '=', sql<string>`any(${[...filters.ids]}::uuid[])`);
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
