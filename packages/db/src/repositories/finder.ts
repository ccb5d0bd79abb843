import { type RawBuilder, sql } from 'kysely';

export { type FoundAlbum, findAlbums } from './finder-albums';

import type { Db } from '../schema';
import {
  type FinderTerm,
  keyStarts,
  longestOf,
  OTHER_CANDIDATES,
  PREFIX_CANDIDATES,
  staged,
  startsWith,
  wordStarts,
} from './finder-bounds';
import { holdsSpellings, matchesSpellings, relevanceTier } from './search-terms';

export { type FinderTerm, finderTransaction } from './finder-bounds';

/** What the finder needs of a kind: where its names are and how to rank them. */
interface Kind {
  /** The table whose size decides whether stage 2 runs. */
  table: 'songs' | 'artists' | 'playlists';
  /** The rows: a subquery aliased `r`, with `id`, `key` (folded name), `name`. */
  from: RawBuilder<unknown>;
  /** The compact text the term's words are looked for in, on `r` (trigram-indexed). */
  compact: RawBuilder<string>;
  /** Only these rows (visibility), on `r`. */
  where: RawBuilder<boolean>;
  popularity: RawBuilder<number>;
  /**
   * Stage 1: ids of rows whose name (a word after its first) or a related name (a song's album or
   * artists) starts with `text`, from b-trees, bounded.
   */
  starting: (text: string) => RawBuilder<unknown>;
}

/** Stage 1's first candidates: the names starting with `text` (tiers 0 and 1), first by name. */
function named(kind: Kind, text: string): RawBuilder<unknown> {
  return sql`(select r.id from ${kind.from} where ${kind.where} and ${startsWith(sql.ref('r.key'), text)}
    order by r.key limit ${PREFIX_CANDIDATES})`;
}

/**
 * Stage 1's other candidates: names (or related names) holding a word that starts with the term;
 * for a term of several words, also those with any name or word starting with its longest word
 * (the others may be in another field, or in another order: the check after finds out).
 */
function starting(kind: Kind, spelled: readonly string[]): RawBuilder<unknown> {
  const longest = longestOf(spelled);
  const driver =
    spelled.length > 1 ? sql`union ${named(kind, longest)} union ${kind.starting(longest)}` : sql``;
  return sql`${kind.starting(spelled.join(' '))} ${driver}`;
}

/** The ids of the best `limit` rows of a kind for the term, best first, typos last. */
async function rank(db: Db, kind: Kind, found: FinderTerm, limit: number): Promise<string[]> {
  const tier = relevanceTier(sql.ref('r.key'), found.term);
  const rows = await staged(db, found, limit, {
    table: kind.table,
    named: (key) => named(kind, key),
    stageOne: (spelled) => sql`${named(kind, spelled.join(' '))} union ${starting(kind, spelled)}`,
    containing: (spellings) => sql`(select r.id from ${kind.from}
      where ${kind.where} and ${matchesSpellings(kind.compact, spellings)} limit ${OTHER_CANDIDATES})`,
    among: async (trx, candidates, spellings, ranked, count, exclude) =>
      (
        await sql<{ id: string }>`
          with candidates as materialized (${candidates})
          select r.id from candidates c
            cross join lateral (select r.* from ${kind.from} where r.id = c.id offset 0) r
          where ${kind.where} and ${holdsSpellings(kind.compact, spellings)}
            and not (r.id::text = any(${exclude}::text[]))
          order by ${ranked ? sql`${tier},` : sql``} ${kind.popularity} desc, r.name, r.id
          limit ${count}`.execute(trx)
      ).rows,
  });
  return rows.map((row) => row.id);
}

const SONGS: Kind = {
  table: 'songs',
  from: sql`(select id, title_key as key, title as name, search_text from songs) r`,
  compact: sql<string>`r.search_text`,
  where: sql<boolean>`true`,
  popularity: sql<number>`(select count(*) from playlist_songs ps where ps.song_id = r.id)`,
  // Words of titles, albums (from the first), and the songs of artists named so.
  starting: (text) => sql`${wordStarts('t', text)}
    union ${keyStarts('songs', 'album_key', text, sql`album_key <> ''`)} union ${wordStarts('l', text)}
    union (select sa.song_id from (${keyStarts('artists', 'name_key', text)} union ${wordStarts('a', text)}) a
      join song_artists sa on sa.artist_id = a.id limit ${PREFIX_CANDIDATES})`,
};

export async function findSongIds(db: Db, term: FinderTerm, limit: number): Promise<string[]> {
  return rank(db, SONGS, term, limit);
}

const ARTISTS: Kind = {
  table: 'artists',
  from: sql`(select id, name_key as key, name from artists) r`,
  compact: sql<string>`replace(r.key, ' ', '')`,
  where: sql<boolean>`true`,
  popularity: sql<number>`(select count(*) from song_artists sa join playlist_songs ps on ps.song_id = sa.song_id
    where sa.artist_id = r.id)`,
  starting: (text) => wordStarts('a', text),
};

export async function findArtistIds(db: Db, term: FinderTerm, limit: number): Promise<string[]> {
  return rank(db, ARTISTS, term, limit);
}

/** Public playlists and the viewer's own; the more songs, the more popular. */
function playlistsOf(viewerId: string | null): Kind {
  return {
    table: 'playlists',
    from: sql`(select id, name_key as key, name, is_public, user_id from playlists) r`,
    compact: sql<string>`replace(r.key, ' ', '')`,
    where: sql<boolean>`(r.is_public or r.user_id = ${viewerId}::uuid)`,
    popularity: sql<number>`(select count(*) from playlist_songs ps where ps.playlist_id = r.id)`,
    starting: (text) => wordStarts('p', text),
  };
}

export async function findPlaylistIds(
  db: Db,
  term: FinderTerm,
  limit: number,
  viewerId: string | null,
): Promise<string[]> {
  return rank(db, playlistsOf(viewerId), term, limit);
}
