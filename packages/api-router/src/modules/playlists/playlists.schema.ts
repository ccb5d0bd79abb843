import type { PlaylistWithSongs } from '@music/db';
import { z } from 'zod';
import { idParam, listOf, longText, pageQuery, text } from '../../schemas';
import { timestamps, timestampsOf } from '../shared/records.schema';
import { uniqueIds } from '../songs/songs.schema';

export const playlistSchema = z
  .object({
    id: z.uuid(),
    userId: z.uuid().meta({ description: 'The owner' }),
    name: z.string().max(100),
    description: z.string().max(1000).nullable(),
    isPublic: z.boolean(),
    songIds: z.array(z.uuid()).meta({ description: 'The songs in playlist order' }),
    songCount: z.number().int(),
    ...timestamps,
  })
  .meta({ id: 'Playlist' });

export type Playlist = z.infer<typeof playlistSchema>;

export function toPlaylist(row: PlaylistWithSongs): Playlist {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    description: row.description,
    isPublic: row.is_public,
    songIds: row.song_ids,
    songCount: row.song_ids.length,
    ...timestampsOf(row),
  };
}

const playlistFields = {
  name: text(1, 100).meta({ description: '1 to 100 characters after trimming' }),
  description: longText(1000).nullable().optional().meta({ description: 'Up to 1000 characters, or null' }),
  isPublic: z.boolean().optional().meta({ description: 'Readable by every signed-in user; default false' }),
  songIds: uniqueIds('Unique ids of existing songs, in playlist order', 10_000).optional(),
};

export const createPlaylistInput = z.strictObject({
  ...playlistFields,
  userId: z.uuid().optional().meta({ description: 'The owner (admins only; default: yourself)' }),
});
export type CreatePlaylistInput = z.infer<typeof createPlaylistInput>;

export const playlistIdInput = z.strictObject({ playlistId: idParam('playlist') });

/** Omitted `description`/`isPublic` reset to null/false; an omitted `songIds` keeps the songs. */
export const replacePlaylistInput = z.strictObject({ playlistId: idParam('playlist'), ...playlistFields });
export type ReplacePlaylistInput = z.infer<typeof replacePlaylistInput>;

export const listPlaylistsInput = z.strictObject({
  userId: z.uuid().optional().meta({
    description: 'Only this user’s playlists (others than yourself: admins, or with `visibility=public`)',
  }),
  visibility: z.enum(['public']).optional().meta({
    description:
      'An extension: `public` lists the public playlists of every user (or of `userId`), readable by anyone signed in. Omitted: the contract’s behaviour (your own; admins all)',
  }),
  ...pageQuery,
});
export type ListPlaylistsInput = z.infer<typeof listPlaylistsInput>;

export const listPlaylistSongsInput = z.strictObject({ playlistId: idParam('playlist'), ...pageQuery });
export type ListPlaylistSongsInput = z.infer<typeof listPlaylistSongsInput>;

export const addPlaylistSongInput = z.strictObject({
  playlistId: idParam('playlist'),
  songId: z.uuid().meta({ description: 'The song to append' }),
});
export type AddPlaylistSongInput = z.infer<typeof addPlaylistSongInput>;

export const playlistSongInput = z.strictObject({ playlistId: idParam('playlist'), songId: idParam('song') });
export type PlaylistSongInput = z.infer<typeof playlistSongInput>;

export const playlistListSchema = listOf(playlistSchema).meta({ id: 'PlaylistList' });
