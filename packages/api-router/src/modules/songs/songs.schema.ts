import type { SongWithArtists } from '@music/db';
import { z } from 'zod';
import {
  cursorListOf,
  idParam,
  idsFilter,
  listQuery,
  relevanceNeedsSearch,
  sortQuery,
  text,
  uuidField,
} from '../../schemas';
import { artistSchema } from '../artists/artists.schema';
import { recordOf, recordSchema } from '../common/records.schema';

export const songSchema = recordSchema('Song', {
  // The bounds the input enforces, so the document shows what a client can expect.
  title: z.string().min(1).max(200),
  album: z.string().max(200).nullable(),
  genre: z.string().max(50).nullable(),
  duration: z.number().int().min(1).max(86400).meta({ description: 'Length in seconds, 1 to 86400' }),
  releaseYear: z.number().int().min(1000).max(9999).nullable(),
  isrc: z.string().length(12).nullable().meta({
    description: 'The recording’s ISRC: 12 characters, upper case, no hyphens; unique',
    example: 'USRC17607839',
  }),
  externalId: z.string().max(200).nullable().meta({
    description: 'The song’s id in the system it came from (a label’s catalogue number); unique',
    example: 'LBL-2024-0042',
  }),
  // Unbounded, unlike the input's 100: links added one by one (POST /artists/{id}/songs/{id})
  // may take a song past it.
  artistIds: z.array(z.uuid()).meta({ description: 'In the order given; links added later go last' }),
});

export type Song = z.infer<typeof songSchema>;

export function toSong(row: SongWithArtists): Song {
  return recordOf(row, {
    title: row.title,
    album: row.album,
    genre: row.genre,
    duration: row.duration,
    releaseYear: row.release_year,
    isrc: row.isrc,
    externalId: row.external_id,
    artistIds: row.artist_ids,
  });
}

/**
 * An array of ids without repeats; a repeat is reported at its later index (`field.N`). Ids are
 * lower-cased on the way in, so two spellings of one id are a repeat too.
 */
export function uniqueIds(description: string, max: number) {
  return z
    .array(uuidField())
    .max(max)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((id, index) => {
        const key = id.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index], message: 'Repeated id' });
        seen.add(key);
      });
    })
    .meta({ description });
}

/** An ISRC as stored: country (2 letters), registrant (3 letters or digits), year (2), number (5). */
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

/**
 * An ISRC as people write it (`US-RC1-76-07839`, lower case, spaced): stored as its 12
 * characters. A refinement, not `.regex`: its message reaches people as written (the console
 * shows a custom issue's message), and a pattern in the document would describe the stored
 * form, not what the field accepts.
 */
export const isrcField = z
  .string()
  .max(24)
  .overwrite((value) => value.replace(/[\s-]/g, '').toUpperCase())
  .refine(
    (value) => ISRC.test(value),
    'An ISRC is 12 characters: a country code (2 letters), a registrant (3 letters or digits), a year (2 digits) and a number (5 digits), e.g. USRC17607839',
  );

const songFields = {
  title: text(1, 200).meta({ description: '1 to 200 characters after trimming' }),
  album: text(0, 200).nullable().optional().meta({ description: 'Up to 200 characters, or null' }),
  genre: text(0, 50).nullable().optional().meta({ description: 'Up to 50 characters, or null' }),
  duration: z.number().int().min(1).max(86400).meta({ description: 'Length in seconds, 1 to 86400' }),
  releaseYear: z.number().int().min(1000).max(9999).nullable().optional(),
  isrc: isrcField.nullable().optional().meta({
    description:
      'The recording’s ISRC, or null: 12 characters (hyphens and spaces dropped, upper-cased); no two songs share one',
  }),
  externalId: text(1, 200).nullable().optional().meta({
    description:
      'The song’s id in the system it came from, or null: 1 to 200 characters; no two songs share one (an import updates by it)',
  }),
  artistIds: uniqueIds('Unique ids of existing artists, in order', 100).optional(),
};

export const createSongInput = z.strictObject(songFields);

export const exportSongsInput = z.strictObject({
  format: z
    .enum(['csv', 'ndjson'])
    .default('csv')
    .meta({ description: '`csv` (default) or `ndjson` (one JSON object a line)' }),
});
export type CreateSongInput = z.infer<typeof createSongInput>;

export const songIdInput = z.strictObject({ songId: idParam('song') });

/**
 * `expand`: what a song read carries besides the song. `artists`: each song's artists, as
 * `GET /artists/{id}` answers them, in `artistIds` order. Checked by the service (an unknown
 * value is a 422 on `expand`), so the query string's syntax stays lenient.
 */
export const expandQuery = z
  .string()
  .max(200)
  .optional()
  .meta({
    description:
      'Comma-separated things to add to each song: `artists` (the song’s artists, in `artistIds` ' +
      'order, as `artists`). Without it the song is answered as ever. Anything else is a 422.',
    example: 'artists',
  });

export const getSongInput = z.strictObject({ songId: idParam('song'), expand: expandQuery });
export type GetSongInput = z.infer<typeof getSongInput>;

/** A song as reads answer it: with `artists` when `expand=artists` asked for them. */
export const songReadSchema = songSchema
  .extend({
    artists: z
      .array(artistSchema)
      .optional()
      .meta({ description: 'With `expand=artists` only: the song’s artists, in `artistIds` order' }),
  })
  .meta({ id: 'SongRead' });
export type SongRead = z.infer<typeof songReadSchema>;

/** How many ids `GET /songs?ids` takes: one page's worth at the largest `limit`. */
export const MAX_SONG_IDS = 100;

export const patchSongInput = z.strictObject({
  songId: idParam('song'),
  title: songFields.title.optional(),
  album: songFields.album,
  genre: songFields.genre,
  duration: songFields.duration.optional(),
  releaseYear: songFields.releaseYear,
  isrc: songFields.isrc,
  externalId: songFields.externalId,
  artistIds: uniqueIds('Replaces the song’s artists, in this order', 100).optional(),
});
export type PatchSongInput = z.infer<typeof patchSongInput>;

/** The fields `GET /songs` can be ordered by. */
export const SONG_SORT_FIELDS = ['title', 'album', 'releaseYear', 'duration', 'createdAt'] as const;
export type SongSortField = (typeof SONG_SORT_FIELDS)[number];

export const listSongsInput = z
  .strictObject({
    search: text(0, 200)
      .optional()
      .meta({
        description:
          'Words to find in the title, the album or an artist’s name, in any order. Letter case, ' +
          'accents and letter variants (é/e, ł/l, ø/o, æ/ae, œ/oe, ß/ss), full-width forms, ' +
          'punctuation and spacing between words do not count: `ac dc` and `acdc` find “AC/DC”, ' +
          '`beyonce` finds “Beyoncé”. A term without letters or digits is looked for as written, and ' +
          'one made only of words of one or two characters (`a-ha`, `ac/dc`) as one run of them. ' +
          'A search counts at most 1,000 matches: beyond that, `total` is 1,000 and the pages hold ' +
          '1,000 of the matches (the first the index finds; by relevance, with every title equal to ' +
          'or starting with the term among them) in the order asked; cursor pages go on through ' +
          'every match.',
      }),
    artistId: uuidField().optional().meta({ description: 'Only songs of this artist' }),
    ids: idsFilter('song', MAX_SONG_IDS, {
      absent: 'ids that name nothing are simply absent, and the other filters still apply.',
      resolves: 'the songs of a playlist page or a list of ids',
    }),
    expand: expandQuery,
    genre: text(0, 50).optional().meta({ description: 'Only songs of this genre (case-insensitive)' }),
    isrc: isrcField
      .optional()
      .meta({ description: 'Only the song with this ISRC (written as the field accepts it)' }),
    externalId: text(1, 200).optional().meta({ description: 'Only the song with this externalId' }),
    sort: sortQuery(SONG_SORT_FIELDS, { relevance: true }).meta({
      description:
        'Comma-separated fields to order by, `-` for descending: title, album, releaseYear, duration, ' +
        'createdAt (default: title). Ties are broken by id. Songs without an album or a release ' +
        'year come last in ascending order and first in descending order. Or, with `search`, ' +
        '`relevance` alone: titles that are the term first, then titles starting with it, then ' +
        'titles with a word starting with it, then the other matches (album, artists); within each, ' +
        'songs in more playlists first, then by title and id.',
    }),
    ...listQuery,
  })
  .superRefine(relevanceNeedsSearch);
export type ListSongsInput = z.infer<typeof listSongsInput>;

export const songListSchema = cursorListOf(songReadSchema).meta({ id: 'SongList' });
