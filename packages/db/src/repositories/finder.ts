import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../schema';
import { matchesTerm, relevanceTier, type SearchTerm } from './search-terms';

/**
 * The finder behind `GET /search`: the best few songs, artists, albums and playlists for a term
 * typed so far. Each kind is ranked as `sort=relevance` ranks a list (exact, starts with, a word
 * starts with, other; then popularity, then name, then id), and then come the matches with typos
 * (tier 4): a word of 5 to 8 letters may be one edit away, of 9 or more two.
 *
 * Bounded, so its cost does not grow with the catalogue: it ranks every exact match, the first
 * `PREFIX_CANDIDATES` names starting with the term (in name order, from a b-tree), and up to
 * `OTHER_CANDIDATES` other matches from the trigram index, which is only consulted when a word of
 * the term has three characters or more (shorter words have no trigram: a one- or two-letter term
 * finds names starting with it, which is what someone typing it is after). Typos are looked for
 * only when the strict matches do not fill the answer: among the `TYPO_CANDIDATES` texts most
 * similar to the longest word (pg_trgm's word similarity, at least `typoSimilarity`, on the folded
 * words: a song's title, album and artist names), each then checked word by word
 * (`search_typo_match`), so a typo in a title is forgiven while another word names the artist. A list with
 * `sort=relevance` ranks every match; the finder trades that for a bounded cost.
 */
const PREFIX_CANDIDATES = 200;
const OTHER_CANDIDATES = 500;
const TYPO_CANDIDATES = 200;
/**
 * The least word similarity of a candidate: one edit in a word of 5 to 8 letters keeps at least a
 * third of its trigrams (0.3), two edits in a longer word a fifth (0.2).
 */
const typoSimilarity = (word: string) => (word.length >= 9 ? '0.2' : '0.3');

export interface FoundAlbum {
  name: string;
  artist_ids: string[];
  song_count: number;
}

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

const hasTrigramWord = (term: SearchTerm) => term.words.some((word) => word.length >= 3);

/** The ids of the best `limit` rows of a kind for the term, best first. */
async function rank(db: Db, kind: Kind, term: SearchTerm, limit: number): Promise<string[]> {
  const prefix = `${term.key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
  const longest = term.words.reduce((a, b) => (b.length > a.length ? b : a), '');
  if (longest.length < 5) return [];
  return db.transaction().execute(async (trx) => {
    // For this transaction only, so no other query on the connection sees it.
    await sql`select set_config('pg_trgm.word_similarity_threshold', ${typoSimilarity(longest)}, true)`.execute(
      trx,
    );
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

/**
 * Albums: the songs' album names, one album per folded name and first artist (so two artists'
 * "Greatest Hits" are two albums), named by its most common spelling, with every artist of its
 * songs (the first artist first) and how many songs it has. Ranked like the others, by the
 * album's name; its popularity is its songs' (playlists holding them, summed).
 */
export async function findAlbums(db: Db, term: SearchTerm, limit: number): Promise<FoundAlbum[]> {
  if (term.words.length === 0) return [];
  // An album's id in the ranking: its folded name and first artist, as one text.
  const albums = sql`(
    select s.album_key || chr(10) || coalesce(first.artist_id::text, '') as id, s.album_key as key,
      s.album as name, replace(s.album_key, ' ', '') as compact, s.id as song_id
    from songs s
    left join song_artists first on first.song_id = s.id and first.position = (
      select min(position) from song_artists p where p.song_id = s.id)
    where s.album_key <> ''
  )`;
  // Candidates by name through the songs' indexes, then grouped: rank() over the grouped rows.
  const kind: Kind = {
    from: albumCandidates(albums, term),
    compact: sql<string>`r.compact`,
    words: sql<string>`r.key`,
    where: sql<boolean>`true`,
    popularity: sql<number>`r.popularity`,
  };
  const ids = await rank(db, kind, term, limit);
  if (ids.length === 0) return [];
  const { rows } = await sql<FoundAlbum & { id: string }>`
    select a.id,
      (select name from ${albums} n where n.id = a.id group by name order by count(*) desc, name limit 1) as name,
      array(
        select sa.artist_id from ${albums} m join song_artists sa on sa.song_id = m.song_id
        where m.id = a.id group by sa.artist_id order by min(sa.position), sa.artist_id limit 1000
      )::text[] as artist_ids,
      count(*)::int as song_count
    from ${albums} a where a.id = any(${ids}::text[]) group by a.id`.execute(db);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ name: row.name, artist_ids: row.artist_ids, song_count: row.song_count }] : [];
  });
}

/**
 * The album rows the ranking reads, limited first to the songs whose album can match (exact or
 * prefix through `songs_album_key_idx`, substrings through the songs' trigram index), so no
 * search groups every album of the catalogue.
 */
function albumCandidates(albums: RawBuilder<unknown>, term: SearchTerm): RawBuilder<unknown> {
  const prefix = `${term.key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const longest = term.words.reduce((a, b) => (b.length > a.length ? b : a), '');
  const substring = hasTrigramWord(term)
    ? sql`or s.id in (select id from songs where ${matchesTerm(sql`search_text`, term, [])} limit ${OTHER_CANDIDATES})`
    : sql``;
  const typo =
    longest.length >= 5
      ? sql`or s.id in (select id from songs where ${longest} <% search_words
          order by word_similarity(${longest}, search_words) desc limit ${TYPO_CANDIDATES})`
      : sql``;
  return sql`(
    select id, key, min(name) as name, min(compact) as compact,
      sum((select count(*) from playlist_songs ps where ps.song_id = a.song_id)) as popularity
    from ${albums} a
    where a.song_id in (
      select s.id from songs s where s.album_key <> '' and (s.album_key like ${prefix} ${substring} ${typo})
    )
    group by id, key) r`;
}
