import { type RawBuilder, sql } from 'kysely';

export { type FoundAlbum, findAlbums } from './finder-albums';

import type { Db } from '../schema';
import {
  hasTrigramWord,
  longestWord,
  OTHER_CANDIDATES,
  PREFIX_CANDIDATES,
  prefixPattern,
  TYPO_CANDIDATES,
  withTypoSettings,
} from './finder-bounds';
import { matchesTerm, relevanceTier, type SearchTerm } from './search-terms';

/** What the finder needs of a kind: where its names are and how to rank them. */
interface Kind {
  /** The rows: a table, or a subquery aliased `r`, with `id`, `key` (folded name), `name`. */
  from: RawBuilder<unknown>;
  /** The compact text the term's words are looked for in, on `r` (trigram-indexed). */
  compact: RawBuilder<string>;
  /** The folded words typos are looked for in, on `r` (trigram-indexed). */
  words: RawBuilder<string>;
  /** Only these rows (visibility), on `r`. */
  where: RawBuilder<boolean>;
  popularity: RawBuilder<number>;
}

/** The ids of the best `limit` rows of a kind for the term, best first. */
async function rank(db: Db, kind: Kind, term: SearchTerm, limit: number): Promise<string[]> {
  const prefix = prefixPattern(term);
  const other = hasTrigramWord(term)
    ? sql`union (select r.id from ${kind.from} where ${kind.where} and ${matchesTerm(kind.compact, term, [])}
        limit ${OTHER_CANDIDATES})`
    : sql``;
  const strict = await sql<{ id: string }>`
    with candidates as materialized (
      select r.id from ${kind.from} where ${kind.where} and r.key = ${term.key}
      union (select r.id from ${kind.from} where ${kind.where} and r.key like ${prefix}
        order by r.key limit ${PREFIX_CANDIDATES})
      ${other}
    )
    select r.id from ${kind.from} join candidates c on c.id = r.id
    where ${matchesTerm(kind.compact, term, [])}
    order by ${relevanceTier(sql.ref('r.key'), term)}, ${kind.popularity} desc, r.name, r.id
    limit ${limit}`.execute(db);
  const ids = strict.rows.map((row) => row.id);
  if (ids.length >= limit) return ids;
  return [...ids, ...(await typos(db, kind, term, limit - ids.length, ids))];
}

/** Matches with typos, after the strict ones (`found`), best first. */
async function typos(
  db: Db,
  kind: Kind,
  term: SearchTerm,
  limit: number,
  found: string[],
): Promise<string[]> {
  const longest = longestWord(term);
  if (longest.length < 5) return [];
  return withTypoSettings(db, longest, [], async (trx) => {
    const { rows } = await sql<{ id: string }>`
      with candidates as materialized (
        select r.id from ${kind.from} where ${kind.where} and ${longest} <% ${kind.words}
        order by word_similarity(${longest}, ${kind.words}) desc limit ${TYPO_CANDIDATES}
      )
      select r.id from ${kind.from} join candidates c on c.id = r.id
      where search_typo_match(${kind.words}, ${term.words}::text[]) and not (r.id::text = any(${found}::text[]))
      order by ${kind.popularity} desc, r.name, r.id
      limit ${limit}`.execute(trx);
    return rows.map((row) => row.id);
  });
}

const SONGS: Kind = {
  from: sql`(select id, title_key as key, title as name, search_text, search_words from songs) r`,
  compact: sql<string>`r.search_text`,
  words: sql<string>`r.search_words`,
  where: sql<boolean>`true`,
  popularity: sql<number>`(select count(*) from playlist_songs ps where ps.song_id = r.id)`,
};

export async function findSongIds(db: Db, term: SearchTerm, limit: number): Promise<string[]> {
  return term.words.length === 0 ? [] : rank(db, SONGS, term, limit);
}

const ARTISTS: Kind = {
  from: sql`(select id, name_key as key, name from artists) r`,
  compact: sql<string>`replace(r.key, ' ', '')`,
  words: sql<string>`r.key`,
  where: sql<boolean>`true`,
  popularity: sql<number>`(select count(*) from song_artists sa join playlist_songs ps on ps.song_id = sa.song_id
    where sa.artist_id = r.id)`,
};

export async function findArtistIds(db: Db, term: SearchTerm, limit: number): Promise<string[]> {
  return term.words.length === 0 ? [] : rank(db, ARTISTS, term, limit);
}

/** Public playlists and the viewer's own; the more songs, the more popular. */
function playlistsOf(viewerId: string | null): Kind {
  return {
    from: sql`(select id, name_key as key, name, is_public, user_id from playlists) r`,
    compact: sql<string>`replace(r.key, ' ', '')`,
    words: sql<string>`r.key`,
    where: sql<boolean>`(r.is_public or r.user_id = ${viewerId}::uuid)`,
    popularity: sql<number>`(select count(*) from playlist_songs ps where ps.playlist_id = r.id)`,
  };
}

export async function findPlaylistIds(
  db: Db,
  term: SearchTerm,
  limit: number,
  viewerId: string | null,
): Promise<string[]> {
  return term.words.length === 0 ? [] : rank(db, playlistsOf(viewerId), term, limit);
}
