import { type Expression, type RawBuilder, sql } from 'kysely';
import { artistRows } from './artists';
import { albumStages, type FoundAlbum } from './finder-albums';
import { type PlaylistWithSongs, playlistsWithSongs } from './playlists';
import { type SongWithArtists, songsWithArtists } from './songs';

export type { FoundAlbum } from './finder-albums';

import type { ArtistRow, Db } from '../schema';
import {
  type FinderTerm,
  keyStarts,
  longestOf,
  OTHER_CANDIDATES,
  PREFIX_CANDIDATES,
  type Stages,
  staged,
  startsWith,
  wordStarts,
} from './finder-bounds';
import { holdsSpellings, matchesSpellings, relevanceTier, type SearchTerm } from './search-terms';

export { type FinderTerm, finderTransaction } from './finder-bounds';

/** What the finder needs of a kind: where its names are and how to rank them. */
interface Kind {
  /** The table whose size decides whether stage 2 runs. */
  table: 'songs' | 'artists' | 'playlists';
  /** The rows: a subquery aliased `r`, with `id`, `key` (folded name), `name`. */
  from: RawBuilder<unknown>;
  /** The compact text the term's words are looked for in, on `r` (trigram-indexed). */
  compact: RawBuilder<string>;
  /** What is shown of the row whose id is `id` (text). */
  shown: (db: Db, id: RawBuilder<string>) => Expression<unknown>;
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

/** A kind's part in the finder's stages: candidates from `kind`, ranked as every kind is. */
function stagesOf(db: Db, kind: Kind, term: SearchTerm): Stages {
  const tier = relevanceTier(sql.ref('r.key'), term);
  return {
    table: kind.table,
    shown: (id) => kind.shown(db, id),
    named: (key) => named(kind, key),
    stageOne: (spelled) => sql`${named(kind, spelled.join(' '))} union ${starting(kind, spelled)}`,
    containing: (spellings) => sql`(select r.id from ${kind.from}
      where ${kind.where} and ${matchesSpellings(kind.compact, spellings)} limit ${OTHER_CANDIDATES})`,
    among: (candidates, spellings, ranked, exclude) => sql`
      select r.id::text as id, null::json as detail,
        row_number() over (order by ${ranked ? sql`${tier},` : sql``} ${kind.popularity} desc, r.name, r.id) as n
      from ${candidates} c cross join lateral (select r.* from ${kind.from} where r.id = c.id offset 0) r
      where ${kind.where} and ${holdsSpellings(kind.compact, spellings)} and not (r.id::text = any(${exclude}))`,
  };
}

const SONGS: Kind = {
  table: 'songs',
  from: sql`(select id, title_key as key, title as name, search_text from songs) r`,
  compact: sql<string>`r.search_text`,
  shown: (db, id) => songsWithArtists(db).where('songs.id', '=', sql<string>`${id}::uuid`),
  where: sql<boolean>`true`,
  popularity: sql<number>`(select count(*) from playlist_songs ps where ps.song_id = r.id)`,
  // Words of titles, albums (from the first), and the songs of artists named so.
  starting: (text) => sql`${wordStarts('t', text)}
    union ${keyStarts('songs', 'album_key', text, sql`album_key <> ''`)} union ${wordStarts('l', text)}
    union (select sa.song_id from (${keyStarts('artists', 'name_key', text)} union ${wordStarts('a', text)}) a
      join song_artists sa on sa.artist_id = a.id limit ${PREFIX_CANDIDATES})`,
};

const ARTISTS: Kind = {
  table: 'artists',
  from: sql`(select id, name_key as key, name from artists) r`,
  compact: sql<string>`replace(r.key, ' ', '')`,
  shown: (db, id) => artistRows(db).where('artists.id', '=', sql<string>`${id}::uuid`),
  where: sql<boolean>`true`,
  popularity: sql<number>`(select count(*) from song_artists sa join playlist_songs ps on ps.song_id = sa.song_id
    where sa.artist_id = r.id)`,
  starting: (text) => wordStarts('a', text),
};

/** Public playlists and the viewer's own; the more songs, the more popular. */
function playlistsOf(viewerId: string | null): Kind {
  return {
    table: 'playlists',
    from: sql`(select id, name_key as key, name, is_public, user_id from playlists) r`,
    compact: sql<string>`replace(r.key, ' ', '')`,
    shown: (db, id) => playlistsWithSongs(db).where('playlists.id', '=', sql<string>`${id}::uuid`),
    where: sql<boolean>`(r.is_public or r.user_id = ${viewerId}::uuid)`,
    popularity: sql<number>`(select count(*) from playlist_songs ps where ps.playlist_id = r.id)`,
    starting: (text) => wordStarts('p', text),
  };
}

/** What the finder found of each kind asked for, best first, read whole. */
export interface Found {
  songs?: SongWithArtists[];
  artists?: ArtistRow[];
  albums?: FoundAlbum[];
  playlists?: PlaylistWithSongs[];
}

export type FinderKind = keyof Found;

/** A row read as JSON, with its timestamps as the driver gives them (dates). */
function withDates<Row>(detail: unknown): Row {
  const row = detail as Row & { created_at: string | Date; updated_at: string | Date };
  return { ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) };
}

/**
 * The best `limit` of each kind in `kinds` for the term, as `sort=relevance` ranks a list, typos
 * last, in one statement per stage for all the kinds (`staged`), each row read whole in it.
 * Playlists are the public ones and those of `viewerId`.
 */
export async function find(
  db: Db,
  found: FinderTerm,
  kinds: readonly FinderKind[],
  limit: number,
  viewerId: string | null,
): Promise<Found> {
  const stages = kinds.map((kind): Stages => {
    if (kind === 'albums') return albumStages(found.term);
    return stagesOf(
      db,
      kind === 'songs' ? SONGS : kind === 'artists' ? ARTISTS : playlistsOf(viewerId),
      found.term,
    );
  });
  const rows = await staged(db, found, limit, stages);
  const result: Found = {};
  kinds.forEach((kind, k) => {
    const details = rows[k]!.map((row) => row.detail);
    if (kind === 'albums') result.albums = details as FoundAlbum[];
    else if (kind === 'songs') result.songs = details.map((detail) => withDates<SongWithArtists>(detail));
    else if (kind === 'artists') result.artists = details.map((detail) => withDates<ArtistRow>(detail));
    else result.playlists = details.map((detail) => withDates<PlaylistWithSongs>(detail));
  });
  return result;
}
