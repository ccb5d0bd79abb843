import { type RawBuilder, sql } from 'kysely';
import { keyStarts, longestOf, OTHER_CANDIDATES, type Stages, wordStarts } from './finder-bounds';
import {
  holdsSpellings,
  matchesSpellings,
  relevanceTier,
  type SearchTerm,
  type Spellings,
} from './search-terms';

export interface FoundAlbum {
  name: string;
  artist_ids: string[];
  song_count: number;
}

/**
 * Albums for the finder: the songs sharing a folded album name and a first artist
 * (`songs.album_artist_id`: two artists' "Greatest Hits" are two albums), named by the most
 * common spelling, with every artist of its songs (the first artist first) and how many songs it
 * has; ranked by the album's name like every kind, then popularity (playlists holding its songs),
 * then name; then albums found with a typo. In the finder's stages (`finder-bounds.ts`): album
 * names starting with the term from the `(album_key, album_artist_id)` b-tree, then within a
 * budget other matches from the trigram index, then typos; each album's songs then come from that
 * same b-tree.
 */
export function albumStages(term: SearchTerm): Stages {
  const tier = relevanceTier(sql.ref('a.key'), term);
  return {
    table: 'songs',
    stageOne,
    containing,
    among: (candidates, spellings, ranked, exclude) =>
      albumsAmong(candidates, spellings, ranked ? tier : undefined, exclude),
  };
}

/** Songs whose album name holds a word starting with the words (or, for several, the longest). */
function stageOne(spelled: readonly string[]): RawBuilder<unknown> {
  const starting = (text: string) =>
    sql`${keyStarts('songs', 'album_key', text, sql`album_key <> ''`)} union ${wordStarts('l', text)}`;
  const longest = longestOf(spelled);
  return spelled.length > 1
    ? sql`${starting(spelled.join(' '))} union ${starting(longest)}`
    : starting(spelled.join(' '));
}

/** Songs from the trigram index whose search text holds the spellings (their album's is checked after). */
const containing = (spellings: Spellings) =>
  sql`(select id from songs where ${matchesSpellings(sql`search_text`, spellings)} limit ${OTHER_CANDIDATES})`;

/**
 * The albums of the candidate songs whose folded name holds the spellings, except those in
 * `exclude` (ids: folded name, newline, first artist), as `Stages.among` gives them; ranked by
 * tier (strict matches) or by popularity alone (typos).
 */
function albumsAmong(
  candidates: RawBuilder<unknown>,
  spellings: Spellings,
  order: RawBuilder<number> | undefined,
  exclude: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`
    with pairs as materialized (
      select distinct s.album_key as key, s.album_artist_id as first
      from ${candidates} c cross join lateral (select * from songs s where s.id = c.id offset 0) s
      where s.album_key <> '' and ${holdsSpellings(sql`replace(s.album_key, ' ', '')`, spellings)}
    ),
    members as materialized (
      select p.key, p.first, s.id, s.album
      from pairs p cross join lateral (
        select s.id, s.album from songs s
        where s.album_key = p.key and s.album_key <> '' and s.album_artist_id = p.first
        union all
        select s.id, s.album from songs s
        where s.album_key = p.key and s.album_key <> '' and p.first is null and s.album_artist_id is null
      ) s
    ),
    albums as (
      select m.key, m.first, count(*)::int as song_count,
        sum((select count(*) from playlist_songs ps where ps.song_id = m.id)) as popularity,
        (select n.album from members n where n.key = m.key and n.first is not distinct from m.first
          group by n.album order by count(*) desc, n.album limit 1) as name
      from members m group by m.key, m.first
    )
    select a.key || chr(10) || coalesce(a.first::text, '') as id,
      json_build_object('name', a.name, 'song_count', a.song_count, 'artist_ids', array(
        select sa.artist_id from members m join song_artists sa on sa.song_id = m.id
        where m.key = a.key and m.first is not distinct from a.first
        group by sa.artist_id order by min(sa.position), sa.artist_id limit 1000
      )::text[]) as detail,
      row_number() over (order by ${order ? sql`${order},` : sql``} a.popularity desc, a.name, a.key, a.first) as n
    from albums a
    where not ((a.key || chr(10) || coalesce(a.first::text, '')) = any(${exclude}))`;
}
