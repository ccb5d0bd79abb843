import type { PlaylistWithSongs } from '@music/db';
import { z } from 'zod';
import {
  cursorListOf,
  idParam,
  idsFilter,
  listQuery,
  longText,
  sortQuery,
  text,
  uuidField,
} from '../../schemas';
import { recordOf, recordSchema } from '../common/records.schema';
import { expandQuery, uniqueIds } from '../songs/songs.schema';

/**
 * The most songs a playlist holds: the bound of `songIds` in a body, and the one appending a
 * song enforces, so the output schema (which states it too) never refuses a stored playlist.
 */
export const MAX_PLAYLIST_SONGS = 10_000;

// The output states the bounds the input enforces, so the document tells clients what they get.
export const playlistSchema = recordSchema('Playlist', {
  userId: z.uuid().meta({ description: 'The owner' }),
  name: z.string().min(1).max(100),
  description: z.string().max(1000).nullable(),
  isPublic: z.boolean(),
  songIds: z.array(z.uuid()).max(MAX_PLAYLIST_SONGS).meta({ description: 'The songs in playlist order' }),
  songCount: z.number().int().min(0).max(MAX_PLAYLIST_SONGS).meta({ description: 'songIds.length' }),
});

export type Playlist = z.infer<typeof playlistSchema>;

/**
 * The representation every answer (and so the ETag) is made of: the songs and their order are
 * in it, so reordering, adding or removing a song changes the playlist's ETag.
 */
export function toPlaylist(row: PlaylistWithSongs): Playlist {
  return recordOf(row, {
    userId: row.user_id,
    name: row.name,
    description: row.description,
    isPublic: row.is_public,
    songIds: row.song_ids,
    songCount: row.song_ids.length,
  });
}

const playlistFields = {
  name: text(1, 100).meta({ description: '1 to 100 characters after trimming' }),
  description: longText(1000).nullable().optional().meta({ description: 'Up to 1000 characters, or null' }),
  isPublic: z.boolean().optional().meta({ description: 'Readable by every signed-in user; default false' }),
  songIds: uniqueIds('Unique ids of existing songs, in playlist order', MAX_PLAYLIST_SONGS).optional(),
};

export const createPlaylistInput = z.strictObject({
  ...playlistFields,
  userId: uuidField().optional().meta({ description: 'The owner (admins only; default: yourself)' }),
});
export type CreatePlaylistInput = z.infer<typeof createPlaylistInput>;

export const playlistIdInput = z.strictObject({ playlistId: idParam('playlist') });

/** Omitted `description`/`isPublic` reset to null/false; an omitted `songIds` keeps the songs. */
export const replacePlaylistInput = z.strictObject({ playlistId: idParam('playlist'), ...playlistFields });
export type ReplacePlaylistInput = z.infer<typeof replacePlaylistInput>;

/** How many ids `GET /playlists?ids` takes: one page's worth at the largest `limit`. */
export const MAX_PLAYLIST_IDS = 100;

/** The fields `GET /playlists` can be ordered by. */
export const PLAYLIST_SORT_FIELDS = ['name', 'createdAt'] as const;
export type PlaylistSortField = (typeof PLAYLIST_SORT_FIELDS)[number];

export const listPlaylistsInput = z.strictObject({
  userId: uuidField()
    .optional()
    .meta({
      description:
        'Only this user’s playlists. A non-admin may name only themself (anyone else: 403), ' +
        'except with `visibility=public`, which lists that user’s public playlists.',
    }),
  visibility: z
    .enum(['public'])
    .optional()
    .meta({
      description:
        'An extension. `public`: the public playlists of every user, or of `userId` when given, ' +
        'for any signed-in caller (admins included: only the public ones). Omitted: your own ' +
        'playlists; an admin sees every playlist, or `userId`’s.',
    }),
  artistId: uuidField()
    .optional()
    .meta({
      description:
        'An extension. Only the playlists holding at least one song of this artist (one that does ' +
        'not exist: none). Combines with the other filters: with `visibility=public`, the public ' +
        'playlists featuring the artist, whoever owns them.',
    }),
  sort: sortQuery(PLAYLIST_SORT_FIELDS).meta({
    description:
      'Comma-separated fields to order by, `-` for descending: name, createdAt (default: createdAt). ' +
      'Ties are broken by id.',
  }),
  ids: idsFilter('playlist', MAX_PLAYLIST_IDS, {
    absent:
      'ids that name nothing, or a playlist you may not read (another user’s private one), are ' +
      'simply absent; the other filters still apply, and without `userId` or `visibility` a ' +
      'non-admin gets their own and public playlists among them.',
    resolves: 'playlists a client holds the ids of',
  }),
  ...listQuery,
});
export type ListPlaylistsInput = z.infer<typeof listPlaylistsInput>;

/** No `sort`: a playlist's songs are always in playlist order. */
export const listPlaylistSongsInput = z.strictObject({
  playlistId: idParam('playlist'),
  expand: expandQuery,
  ...listQuery,
});
export type ListPlaylistSongsInput = z.infer<typeof listPlaylistSongsInput>;

export const addPlaylistSongInput = z.strictObject({
  playlistId: idParam('playlist'),
  songId: uuidField().meta({ description: 'The song to append (any letter case)' }),
});
export type AddPlaylistSongInput = z.infer<typeof addPlaylistSongInput>;

export const playlistSongInput = z.strictObject({ playlistId: idParam('playlist'), songId: idParam('song') });
export type PlaylistSongInput = z.infer<typeof playlistSongInput>;

export const playlistListSchema = cursorListOf(playlistSchema).meta({ id: 'PlaylistList' });
