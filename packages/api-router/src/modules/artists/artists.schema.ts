import type { ArtistRow } from '@music/db';
import { z } from 'zod';
import {
  cursorListOf,
  idParam,
  idsFilter,
  listQuery,
  longText,
  relevanceNeedsSearch,
  sortQuery,
  text,
  uuidField,
} from '../../schemas';
import { recordOf, recordSchema } from '../common/records.schema';

export const artistSchema = recordSchema('Artist', {
  // The bounds the input enforces, so the document shows what a client can expect.
  name: z.string().min(1).max(200),
  bio: z.string().max(2000).nullable(),
  userId: z.uuid().nullable().meta({ description: 'The account managing this artist (role `artist`)' }),
});

export type Artist = z.infer<typeof artistSchema>;

export function toArtist(row: ArtistRow): Artist {
  return recordOf(row, { name: row.name, bio: row.bio, userId: row.user_id });
}

const artistFields = {
  name: text(1, 200).meta({ description: '1 to 200 characters after trimming' }),
  bio: longText(2000).nullable().optional().meta({ description: 'Up to 2000 characters, or null' }),
  userId: uuidField()
    .nullable()
    .optional()
    .meta({ description: 'A user with role `artist` who manages this artist, or null; set by admins only' }),
};

export const createArtistInput = z.strictObject(artistFields);
export type CreateArtistInput = z.infer<typeof createArtistInput>;

export const artistIdInput = z.strictObject({ artistId: idParam('artist') });

/** Full replace: omitted optional fields become null (except `userId` for non-admins, see the service). */
export const replaceArtistInput = z.strictObject({ artistId: idParam('artist'), ...artistFields });
export type ReplaceArtistInput = z.infer<typeof replaceArtistInput>;

export const patchArtistInput = z.strictObject({
  artistId: idParam('artist'),
  name: artistFields.name.optional(),
  bio: artistFields.bio,
  userId: artistFields.userId,
});
export type PatchArtistInput = z.infer<typeof patchArtistInput>;

/** The fields `GET /artists` can be ordered by. */
export const ARTIST_SORT_FIELDS = ['name', 'createdAt'] as const;
export type ArtistSortField = (typeof ARTIST_SORT_FIELDS)[number];

/** How many ids `GET /artists?ids` takes: one page's worth at the largest `limit`. */
export const MAX_ARTIST_IDS = 100;

export const listArtistsInput = z
  .strictObject({
    search: text(0, 200)
      .optional()
      .meta({
        description:
          'Words to find in the name, in any order; letter case, accents, letter variants, ' +
          'punctuation and spacing do not count (`sigur ros` finds “Sigur Rós”).',
      }),
    sort: sortQuery(ARTIST_SORT_FIELDS, { relevance: true }).meta({
      description:
        'Comma-separated fields to order by, `-` for descending: name, createdAt (default: name). ' +
        'Ties are broken by id. Or, with `search`, `relevance` alone: names that are the term, then ' +
        'names starting with it, then names with a word starting with it, then the rest; within ' +
        'each, artists whose songs are in more playlists first, then by name and id.',
    }),
    userId: uuidField().optional().meta({
      description: 'Only artists managed by this account (an extension: how the console finds “my artist”)',
    }),
    ids: idsFilter('artist', MAX_ARTIST_IDS, {
      absent: 'ids that name nothing are simply absent, and the other filters still apply.',
      resolves: 'the artists of a page of songs',
    }),
    ...listQuery,
  })
  .superRefine(relevanceNeedsSearch);
export type ListArtistsInput = z.infer<typeof listArtistsInput>;

export const listArtistSongsInput = z.strictObject({
  artistId: idParam('artist'),
  // The songs' own (songs.schema.ts imports this file, so it is declared there and not here).
  expand: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Comma-separated: `artists` adds each song’s artists. Anything else is a 422.' }),
  ...listQuery,
});
export type ListArtistSongsInput = z.infer<typeof listArtistSongsInput>;

export const artistSongInput = z.strictObject({ artistId: idParam('artist'), songId: idParam('song') });
export type ArtistSongInput = z.infer<typeof artistSongInput>;

export const artistListSchema = cursorListOf(artistSchema).meta({ id: 'ArtistList' });
