import { songsExport } from '@music/db';
import type { FileAnswer } from '../../files';
import type { AuthedContext } from '../../kernel';
import { csvHeader, csvLine, FORMATS, type Format, ndjsonLine, type SongRecord } from './file-format';

/** Songs read per statement while exporting: what the export keeps in memory at once. */
const EXPORT_PAGE = 1000;

const recordOf = (row: songsExport.ExportedSong): SongRecord => ({
  title: row.title,
  album: row.album,
  genre: row.genre,
  duration: row.duration,
  releaseYear: row.release_year,
  isrc: row.isrc,
  externalId: row.external_id,
  artists: row.artist_names,
});

/**
 * The whole catalogue as a file (every signed-in caller reads every song), in id order, a page
 * of songs at a time: memory stays the same however large the catalogue. One piece per page.
 */
export function exportSongs(ctx: AuthedContext, input: { format: Format }): FileAnswer {
  const line = input.format === 'csv' ? csvLine : ndjsonLine;
  async function* chunks(): AsyncGenerator<string> {
    if (input.format === 'csv') yield csvHeader();
    let after: string | null = null;
    for (;;) {
      const rows = await songsExport.exportSongsAfter(ctx.db, after, EXPORT_PAGE);
      if (rows.length === 0) return;
      yield rows.map((row) => line(recordOf(row))).join('');
      if (rows.length < EXPORT_PAGE) return;
      after = rows.at(-1)!.id;
    }
  }
  const date = new Date().toISOString().slice(0, 10);
  return { type: FORMATS[input.format], filename: `songs-${date}.${input.format}`, chunks: chunks() };
}
