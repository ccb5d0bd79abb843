import { z } from 'zod';
import { text } from '../../schemas';
import { CSV_COLUMNS, namesOfCell, type SongRecord } from '../bulk/file-format';
import { isrcField, uniqueIds } from '../songs/songs.schema';

/**
 * One record of an import file, checked: a song's writable fields (a record is the whole song:
 * what it leaves out is null), and its artists by name (`artists`) or, in NDJSON, by id
 * (`artistIds`). What the export writes reads back to the same song.
 */

const recordSchema = z.strictObject({
  title: text(1, 200),
  album: text(0, 200).nullable().optional(),
  genre: text(0, 50).nullable().optional(),
  duration: z.number().int().min(1).max(86400),
  releaseYear: z.number().int().min(1000).max(9999).nullable().optional(),
  isrc: isrcField.nullable().optional(),
  externalId: text(1, 200).nullable().optional(),
  artists: z.array(text(1, 200)).max(100).optional(),
  artistIds: uniqueIds('Artist ids', 100).optional(),
});

/** A checked record: the song's fields, and its artists by name or by id. */
export interface ImportRecord {
  song: Omit<SongRecord, 'artists'>;
  artists: { names: string[] } | { ids: string[] } | undefined;
}

export interface RecordError {
  field: string;
  message: string;
}

function checked(raw: Record<string, unknown>): ImportRecord | RecordError[] {
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => ({
      field: issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(',') : ''),
      message: issue.message,
    }));
  }
  const r = parsed.data;
  if (r.artists !== undefined && r.artistIds !== undefined) {
    return [{ field: 'artists', message: 'Give artists by name or by id (artistIds), not both' }];
  }
  const empty = (value: string | null | undefined) => (value === undefined || value === '' ? null : value);
  return {
    song: {
      title: r.title,
      album: empty(r.album),
      genre: empty(r.genre),
      duration: r.duration,
      releaseYear: r.releaseYear ?? null,
      isrc: r.isrc ?? null,
      externalId: r.externalId ?? null,
    },
    artists: r.artists ? { names: r.artists } : r.artistIds ? { ids: r.artistIds } : undefined,
  };
}

/** A whole number as a CSV cell writes it, or the text as it is (the schema then says why). */
const number = (cell: string): number | string => (/^\s*-?\d{1,9}\s*$/.test(cell) ? Number(cell) : cell);

/** A CSV record (cells by column name), checked. An empty cell is no value. */
export function fromCsv(cells: Record<string, string>): ImportRecord | RecordError[] {
  const raw: Record<string, unknown> = {};
  for (const [column, cell] of Object.entries(cells)) {
    if (cell === '') continue;
    if (column === 'duration' || column === 'releaseYear') raw[column] = number(cell);
    else if (column === 'artists') raw.artists = namesOfCell(cell);
    else raw[column] = cell;
  }
  return checked(raw);
}

/** The columns of a CSV header that the import does not know, and the required ones missing. */
export function headerProblem(columns: readonly string[]): string | undefined {
  const known = new Set<string>(CSV_COLUMNS);
  const unknown = columns.filter((c) => !known.has(c));
  if (unknown.length > 0) {
    return `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => JSON.stringify(c.slice(0, 50))).join(', ')}: the columns are ${CSV_COLUMNS.join(', ')}`;
  }
  const missing = ['title', 'duration'].filter((c) => !columns.includes(c));
  if (missing.length > 0) return `The header has no ${missing.join(' or ')} column`;
  if (new Set(columns).size !== columns.length) return 'A column is named twice in the header';
  return undefined;
}

/** An NDJSON line, checked: one JSON object. */
export function fromNdjson(line: string): ImportRecord | RecordError[] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return [{ field: '', message: 'Not a JSON object: the line is not valid JSON' }];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ field: '', message: 'Not a JSON object' }];
  }
  return checked(value as Record<string, unknown>);
}
