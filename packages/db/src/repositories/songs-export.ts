import { sql } from 'kysely';
import type { Db } from '../schema';

/** A song as an export writes it: its writable fields, its artists by name (in link order). */
export interface ExportedSong {
  id: string;
  title: string;
  album: string | null;
  genre: string | null;
  duration: number;
  release_year: number | null;
  isrc: string | null;
  external_id: string | null;
  artist_names: string[];
}

/**
 * The songs after `afterId` in id order, at most `limit`: one page of an export, read in its own
 * statement (an export of a million songs holds no transaction and no connection between pages,
 * and keeps one page in memory). A song written while an export runs is in it if its id comes
 * after the page being read.
 */
export async function exportSongsAfter(
  db: Db,
  afterId: string | null,
  limit: number,
): Promise<ExportedSong[]> {
  const { rows } = await sql<ExportedSong>`
    select s.id, s.title, s.album, s.genre, s.duration, s.release_year, s.isrc, s.external_id,
      coalesce(array(
        select a.name from song_artists sa join artists a on a.id = sa.artist_id
        where sa.song_id = s.id order by sa.position, sa.artist_id), '{}') as artist_names
    from songs s
    where ${afterId}::uuid is null or s.id > ${afterId}::uuid
    order by s.id
    limit ${limit}`.execute(db);
  return rows;
}
