import { emptyOutput } from '../../schemas';
import { authedProcedure, rest, router } from '../../trpc';
import { songListSchema } from '../songs/songs.schema';
import {
  addPlaylistSongInput,
  createPlaylistInput,
  listPlaylistSongsInput,
  listPlaylistsInput,
  playlistIdInput,
  playlistListSchema,
  playlistSchema,
  playlistSongInput,
  replacePlaylistInput,
} from './playlists.schema';
import * as playlists from './playlists.service';

export const playlistsRouter = router({
  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/playlists',
        tag: 'playlists',
        summary: 'List playlists (your own; admins: all, or one user’s), ordered by createdAt, then id',
        errors: ['FORBIDDEN'],
      }),
    )
    .input(listPlaylistsInput)
    .output(playlistListSchema)
    .query(({ ctx, input }) => playlists.listPlaylists(ctx, input)),

  create: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/playlists',
        tag: 'playlists',
        summary: 'Create a playlist (admins may create one for another user with `userId`)',
        status: 201,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(createPlaylistInput)
    .output(playlistSchema)
    .mutation(({ ctx, input }) => playlists.createPlaylist(ctx, input)),

  get: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/playlists/{playlistId}',
        tag: 'playlists',
        summary: 'A playlist (yours, or any public one)',
        errors: ['FORBIDDEN'],
      }),
    )
    .input(playlistIdInput)
    .output(playlistSchema)
    .query(({ ctx, input }) => playlists.getPlaylist(ctx, input.playlistId)),

  replace: authedProcedure
    .meta(
      rest({
        method: 'PUT',
        path: '/playlists/{playlistId}',
        tag: 'playlists',
        summary: 'Replace a playlist (owner only)',
        description:
          'Omitted `description`/`isPublic` reset to null/false; a given `songIds` replaces the ' +
          'order, an omitted one leaves the songs as they are.',
        errors: ['FORBIDDEN'],
      }),
    )
    .input(replacePlaylistInput)
    .output(playlistSchema)
    .mutation(({ ctx, input }) => playlists.replacePlaylist(ctx, input)),

  delete: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/playlists/{playlistId}',
        tag: 'playlists',
        summary: 'Delete a playlist (owner only); the songs stay',
        status: 204,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(playlistIdInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => playlists.deletePlaylist(ctx, input.playlistId)),

  songs: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/playlists/{playlistId}/songs',
        tag: 'playlists',
        summary: 'The playlist’s songs in playlist order',
        errors: ['FORBIDDEN'],
      }),
    )
    .input(listPlaylistSongsInput)
    .output(songListSchema)
    .query(({ ctx, input }) => playlists.listPlaylistSongs(ctx, input)),

  addSong: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/playlists/{playlistId}/songs',
        tag: 'playlists',
        summary: 'Append a song to the playlist (owner only); 409 if it is already there',
        status: 204,
        errors: ['FORBIDDEN', 'CONFLICT'],
      }),
    )
    .input(addPlaylistSongInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => playlists.addSong(ctx, input)),

  removeSong: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/playlists/{playlistId}/songs/{songId}',
        tag: 'playlists',
        summary: 'Remove a song from the playlist (owner only); the song stays in the system',
        status: 204,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(playlistSongInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => playlists.removeSong(ctx, input)),
});
