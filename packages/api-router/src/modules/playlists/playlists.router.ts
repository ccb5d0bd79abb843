import { emptyOutput } from '../../schemas';
import { authedProcedure, rest, router } from '../../trpc';
import { songListSchema } from '../songs/songs.schema';
import {
  addPlaylistSongInput,
  createPlaylistInput,
  listPlaylistSongsInput,
  listPlaylistsInput,
  MAX_PLAYLIST_SONGS,
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
        summary: 'List playlists (your own; admins: all, or one user’s)',
        description:
          'Without `visibility`: a non-admin gets their own playlists (`userId` naming anyone else is ' +
          '403); an admin gets every playlist, or `userId`’s. With `visibility=public` (an ' +
          'extension, for browsing what others share): any signed-in caller gets only public ' +
          'playlists, every user’s or `userId`’s, never a private one (admins included). Oldest ' +
          'first unless `sort` says otherwise; ties are broken by id. `ids` (up to 100) answers ' +
          'only those playlists; without `userId` and `visibility` a non-admin gets their own and ' +
          'the public ones among them. `cursor` pages by cursor (see GET /songs).',
        errors: ['VALIDATION_FAILED', 'FORBIDDEN'],
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
          'order, an omitted one leaves the songs as they are. A replace that changes nothing ' +
          'leaves `updatedAt` and the ETag as they were. With `If-Match`, a stale ETag is 412 and ' +
          'nothing changes.',
        errors: ['FORBIDDEN', 'PRECONDITION_FAILED'],
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
        description: 'With `If-Match`, a stale ETag is 412 and nothing is deleted.',
        status: 204,
        errors: ['FORBIDDEN', 'PRECONDITION_FAILED'],
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
        description:
          'Always in playlist order (there is no `sort`): reorder with PUT /playlists/{playlistId}. ' +
          '`expand=artists` adds each song’s artists; `cursor` pages by cursor (see GET /songs).',
        errors: ['VALIDATION_FAILED', 'FORBIDDEN'],
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
        description:
          `Two concurrent adds of one song: one 204, one 409. A playlist holds at most ${MAX_PLAYLIST_SONGS} songs ` +
          '(409 beyond). `If-Match` is checked against the playlist’s ETag: stale is 412, nothing ' +
          'changes.',
        status: 204,
        errors: ['FORBIDDEN', 'CONFLICT', 'PRECONDITION_FAILED'],
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
        description:
          '404 when the song is not in the playlist. `If-Match` is checked against the playlist’s ' +
          'ETag: stale is 412, nothing changes.',
        status: 204,
        errors: ['FORBIDDEN', 'PRECONDITION_FAILED'],
      }),
    )
    .input(playlistSongInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => playlists.removeSong(ctx, input)),
});
