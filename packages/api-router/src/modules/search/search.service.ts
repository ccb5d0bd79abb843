import { artists, finder, playlists, songs } from '@music/db';
import type { AuthedContext } from '../../kernel';
import { toArtist } from '../artists/artists.schema';
import { toPlaylist } from '../playlists/playlists.schema';
import { toSong } from '../songs/songs.schema';
import { SEARCH_TYPES, type SearchInput, type SearchResult, type SearchType } from './search.schema';

/** Rows in the order of `ids` (a row gone meanwhile is left out). */
function inOrder<Row extends { id: string }>(ids: readonly string[], rows: readonly Row[]): Row[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The finder: the best few of each kind asked for, as `sort=relevance` ranks a list, typos last.
 * Playlists are the public ones and the caller's own; through an API key without the
 * `playlists:read` scope, the public ones only.
 */
export async function search(ctx: AuthedContext, input: SearchInput): Promise<SearchResult> {
  const types: readonly SearchType[] = input.types
    ? SEARCH_TYPES.filter((type) => input.types!.split(',').includes(type))
    : SEARCH_TYPES;
  const { limit } = input;
  const key = ctx.actor.apiKey;
  const viewer = key && !key.scopes.includes('playlists:read') ? null : ctx.actor.user.id;
  // One kind after another, in one transaction (one snapshot, cached plans: finderTransaction):
  // on the embedded database queries run one at a time anyway, and on a server a search holds
  // one connection of the pool, not four.
  return finder.finderTransaction(ctx.db, input.q, async (db, term) => {
    const result: SearchResult = {};
    for (const type of types) {
      if (type === 'songs') {
        const ids = await finder.findSongIds(db, term, limit);
        result.songs = inOrder(ids, await songs.findSongsWithArtists(db, ids)).map(toSong);
      } else if (type === 'artists') {
        const ids = await finder.findArtistIds(db, term, limit);
        result.artists = inOrder(ids, await artists.findArtistsByIds(db, ids)).map(toArtist);
      } else if (type === 'albums') {
        const found = await finder.findAlbums(db, term, limit);
        result.albums = found.map((album) => ({
          name: album.name,
          artistIds: album.artist_ids,
          songCount: album.song_count,
        }));
      } else {
        const ids = await finder.findPlaylistIds(db, term, limit, viewer);
        result.playlists = inOrder(ids, await playlists.findPlaylistsWithSongs(db, ids)).map(toPlaylist);
      }
    }
    return result;
  });
}
