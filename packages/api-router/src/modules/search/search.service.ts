import { finder } from '@music/db';
import type { AuthedContext } from '../../kernel';
import { toArtist } from '../artists/artists.schema';
import { toPlaylist } from '../playlists/playlists.schema';
import { toSong } from '../songs/songs.schema';
import { SEARCH_TYPES, type SearchInput, type SearchResult, type SearchType } from './search.schema';

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
  // Every kind in one transaction (one snapshot, cached plans: finderTransaction), ranked and read
  // together in one statement per stage: on a server a search holds one connection of the pool.
  return finder.finderTransaction(ctx.db, input.q, async (db, term) => {
    const found = await finder.find(db, term, types, limit, viewer);
    const result: SearchResult = {};
    if (found.songs) result.songs = found.songs.map(toSong);
    if (found.artists) result.artists = found.artists.map(toArtist);
    if (found.albums) {
      result.albums = found.albums.map((album) => ({
        name: album.name,
        artistIds: album.artist_ids,
        songCount: album.song_count,
      }));
    }
    if (found.playlists) result.playlists = found.playlists.map(toPlaylist);
    return result;
  });
}
