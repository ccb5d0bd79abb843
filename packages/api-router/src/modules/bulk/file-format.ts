/**
 * The catalogue's file formats, for export and import alike: CSV (RFC 4180, a header row, UTF-8)
 * with the columns below, and NDJSON (one JSON object a line). A song's artists are names: in CSV
 * one cell, separated by `;` (a `;` or `\` inside a name is written `\;` or `\\`); in NDJSON an
 * array. What an export writes, an import reads back unchanged.
 */

export const CSV_COLUMNS = [
  'title',
  'album',
  'genre',
  'duration',
  'releaseYear',
  'isrc',
  'externalId',
  'artists',
] as const;

export const FORMATS = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson' } as const;
export type Format = keyof typeof FORMATS;

/** A song as the files carry it: its writable fields, its artists by name. */
export interface SongRecord {
  title: string;
  album: string | null;
  genre: string | null;
  duration: number;
  releaseYear: number | null;
  isrc: string | null;
  externalId: string | null;
  artists: string[];
}

/** One CSV field: quoted when it holds a comma, a quote, a line break or edge spaces. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Names in one cell, `;`-separated, a `;` or `\` in a name escaped with `\`. */
export function artistsCell(names: readonly string[]): string {
  return names.map((name) => name.replaceAll('\\', '\\\\').replaceAll(';', '\\;')).join(';');
}

/** The names of an artists cell (`artistsCell` read back); empty parts are dropped. */
export function namesOfCell(cell: string): string[] {
  const names: string[] = [];
  let current = '';
  for (let i = 0; i < cell.length; i++) {
    const char = cell[i]!;
    if (char === '\\' && i + 1 < cell.length) current += cell[++i];
    else if (char === ';') {
      names.push(current);
      current = '';
    } else current += char;
  }
  names.push(current);
  return names.map((name) => name.trim()).filter((name) => name !== '');
}

export const csvHeader = (): string => `${CSV_COLUMNS.join(',')}\r\n`;

export function csvLine(song: SongRecord): string {
  const values = [
    song.title,
    song.album,
    song.genre,
    song.duration,
    song.releaseYear,
    song.isrc,
    song.externalId,
    artistsCell(song.artists),
  ];
  return `${values.map(csvField).join(',')}\r\n`;
}

export const ndjsonLine = (song: SongRecord): string => `${JSON.stringify(song)}\n`;
