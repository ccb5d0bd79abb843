import type { ArtistRow } from '@music/db';
import { z } from 'zod';
import { idParam, listOf, longText, pageQuery, text } from '../../schemas';
import { timestamps, timestampsOf } from '../shared/records.schema';

export const artistSchema = z
  .object({
    id: z.uuid(),
    name: z.string().max(200),
    bio: z.string().max(2000).nullable(),
    userId: z.uuid().nullable().meta({ description: 'The account managing this artist (role `artist`)' }),
    ...timestamps,
  })
  .meta({ id: 'Artist' });

export type Artist = z.infer<typeof artistSchema>;

export function toArtist(row: ArtistRow): Artist {
  return {
    id: row.id,
    name: row.name,
    bio: row.bio,
    userId: row.user_id,
    ...timestampsOf(row),
  };
}

const artistFields = {
  name: text(1, 200).meta({ description: '1 to 200 characters after trimming' }),
  bio: longText(2000).nullable().optional().meta({ description: 'Up to 2000 characters, or null' }),
  userId: z
    .uuid()
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

export const listArtistsInput = z.strictObject({
  search: text(0, 200).optional().meta({ description: 'Case-insensitive substring of the name' }),
  userId: z.uuid().optional().meta({
    description: 'Only artists managed by this account (an extension: how the console finds “my artist”)',
  }),
  ...pageQuery,
});
export type ListArtistsInput = z.infer<typeof listArtistsInput>;

export const listArtistSongsInput = z.strictObject({ artistId: idParam('artist'), ...pageQuery });
export type ListArtistSongsInput = z.infer<typeof listArtistSongsInput>;

export const artistSongInput = z.strictObject({ artistId: idParam('artist'), songId: idParam('song') });
export type ArtistSongInput = z.infer<typeof artistSongInput>;

export const artistListSchema = listOf(artistSchema).meta({ id: 'ArtistList' });
