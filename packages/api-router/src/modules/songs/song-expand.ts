import { artists, type Db } from '@music/db';
import { queryFieldError } from '../../cursor';
import { type Artist, toArtist } from '../artists/artists.schema';
import type { Song } from './songs.schema';

/** The things `expand` may name. */
const EXPANSIONS = ['artists'] as const;

/** A song read's `expand`, checked: an unknown (or empty) value is a 422 on `expand`. */
export function expandOf(expand: string | undefined): { artists: boolean } {
  if (expand === undefined) return { artists: false };
  const parts = expand.split(',');
  const unknown = parts.filter((part) => !(EXPANSIONS as readonly string[]).includes(part));
  if (unknown.length > 0) {
    const shown = unknown
      .slice(0, 5)
      .map((part) => `'${part.slice(0, 40)}'`)
      .join(', ');
    throw queryFieldError('expand', `Unknown expansion ${shown} (one of: ${EXPANSIONS.join(', ')})`);
  }
  return { artists: parts.includes('artists') };
}

/**
 * The songs, each with `artists`: its artists in `artistIds` order, read in one query for the
 * whole page (an artist of several songs is read once).
 */
export async function withArtists<S extends Song>(db: Db, list: S[]): Promise<(S & { artists: Artist[] })[]> {
  const ids = [...new Set(list.flatMap((song) => song.artistIds))];
  const byId = new Map((await artists.findArtistsByIds(db, ids)).map((row) => [row.id, toArtist(row)]));
  return list.map((song) => ({ ...song, artists: song.artistIds.flatMap((id) => byId.get(id) ?? []) }));
}
