import { type RawBuilder, sql } from 'kysely';
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

export interface FoundAlbum {
  name: string;
  artist_ids: string[];
  song_count: number;
}

/**
 * How many albums (folded name and first artist) one search ranks at most: the best by name
 * first (exact, prefix, word prefix, other), since each costs a read of all its songs.
 */
const ALBUM_CANDIDATES = 100;

/** A song's first artist (lowest position), or null: what tells two albums of one name apart. */
const firstArtist = (song: RawBuilder<unknown>) =>
  sql`(select sa.artist_id from song_artists sa where sa.song_id = ${song} order by sa.position limit 1)`;

/**
 * Albums for the finder: the songs sharing a folded album name and a first artist (two artists'
 * "Greatest Hits" are two albums), named by the most common spelling, with every artist of its
 * songs (the first artist first) and how many songs it has; ranked by the album's name like every
 * kind, then popularity (playlists holding its songs), then name; then albums found with a typo.
 *
 * Each step reads only what an index gives: candidate songs (exact and prefix album names from the
 * b-tree, other matches from the trigram index, typos from the words' trigram index, each
 * bounded), their albums, then those albums' songs by the album-name b-tree.
 */
export async function findAlbums(db: Db, term: SearchTerm, limit: number): Promise<FoundAlbum[]> {
  if (term.words.length === 0) return [];
  const other = hasTrigramWord(term)
    ? sql`union (select id from songs where ${matchesTerm(sql`search_text`, term, [])} limit ${OTHER_CANDIDATES})`
    : sql``;
  const strict = await albumsAmong(
    db,
    sql`(select id from songs where album_key = ${term.key})
      union (select id from songs where album_key <> '' and album_key like ${prefixPattern(term)}
        order by album_key limit ${PREFIX_CANDIDATES})
      ${other}`,
    (key) => matchesTerm(sql`replace(${key}, ' ', '')`, term, []),
    term,
    limit,
    [],
  );
  const longest = longestWord(term);
  if (strict.length >= limit || longest.length < 5) return strict.map(({ album }) => album);
  const typos = await withTypoSettings(db, longest, [], (trx) =>
    albumsAmong(
      trx,
      sql`select id from songs where ${longest} <% search_words
        order by word_similarity(${longest}, search_words) desc limit ${TYPO_CANDIDATES}`,
      (key) => sql<boolean>`search_typo_match(${key}, ${term.words}::text[])`,
      term,
      limit - strict.length,
      strict.map(({ id }) => id),
    ),
  );
  return [...strict, ...typos].map(({ album }) => album);
}

/**
 * The best `limit` albums among the albums of the candidate songs whose folded name passes
 * `check`, except those in `exclude` (ids: folded name, newline, first artist).
 */
async function albumsAmong(
  db: Db,
  candidates: RawBuilder<unknown>,
  check: (key: RawBuilder<unknown>) => RawBuilder<boolean>,
  term: SearchTerm,
  limit: number,
  exclude: readonly string[],
): Promise<Array<{ id: string; album: FoundAlbum }>> {
  const { rows } = await sql<FoundAlbum & { id: string }>`
    with candidates as materialized (${candidates}),
    pairs as materialized (
      select key, first from (
        select distinct s.album_key as key, ${firstArtist(sql`s.id`)} as first
        from candidates c join songs s on s.id = c.id
        where s.album_key <> '' and ${check(sql`s.album_key`)}
      ) p
      order by ${relevanceTier(sql.ref('p.key'), term)}, p.key
      limit ${ALBUM_CANDIDATES}
    ),
    members as materialized (
      select p.key, p.first, s.id, s.album
      from pairs p join songs s on s.album_key = p.key and s.album_key <> ''
      where ${firstArtist(sql`s.id`)} is not distinct from p.first
    ),
    albums as (
      select m.key, m.first, count(*)::int as song_count,
        sum((select count(*) from playlist_songs ps where ps.song_id = m.id)) as popularity,
        (select n.album from members n where n.key = m.key and n.first is not distinct from m.first
          group by n.album order by count(*) desc, n.album limit 1) as name
      from members m group by m.key, m.first
    )
    select a.key || chr(10) || coalesce(a.first::text, '') as id, a.name, a.song_count,
      array(
        select sa.artist_id from members m join song_artists sa on sa.song_id = m.id
        where m.key = a.key and m.first is not distinct from a.first
        group by sa.artist_id order by min(sa.position), sa.artist_id limit 1000
      )::text[] as artist_ids
    from albums a
    where not ((a.key || chr(10) || coalesce(a.first::text, '')) = any(${exclude}::text[]))
    order by ${relevanceTier(sql.ref('a.key'), term)}, a.popularity desc, a.name, a.key, a.first
    limit ${limit}`.execute(db);
  return rows.map(({ id, name, artist_ids, song_count }) => ({
    id,
    album: { name, artist_ids, song_count },
  }));
}
