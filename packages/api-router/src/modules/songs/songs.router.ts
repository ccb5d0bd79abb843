import { fileAnswerSchema } from '../../files';
import { emptyOutput } from '../../schemas';
import { authedProcedure, rest, router } from '../../trpc';
import { exportSongs } from '../bulk/export.service';
import {
  createSongInput,
  exportSongsInput,
  getSongInput,
  listSongsInput,
  patchSongInput,
  songIdInput,
  songListSchema,
  songReadSchema,
  songSchema,
} from './songs.schema';
import * as songs from './songs.service';

export const songsRouter = router({
  export: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/songs/export',
        tag: 'songs',
        summary: 'The whole catalogue as one file, CSV or NDJSON, streamed',
        description:
          'Each song’s writable fields and its artists by name, in id order: what `POST /imports` ' +
          'reads back unchanged. Written as it is read, a thousand songs at a time.',
        download: {
          'text/csv':
            'A header row, then a song a line: `title, album, genre, duration, releaseYear, isrc, ' +
            'externalId, artists` (artist names separated by `;`; a `;` or `\\` in a name written ' +
            '`\\;` or `\\\\`; empty cells for nulls)',
          'application/x-ndjson':
            'A song a line: `{title, album, genre, duration, releaseYear, isrc, externalId, artists}` ' +
            '(`artists`: the names, in order)',
        },
      }),
    )
    .input(exportSongsInput)
    .output(fileAnswerSchema)
    .query(({ ctx, input }) => exportSongs(ctx, input)),

  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/songs',
        tag: 'songs',
        summary: 'List songs, ordered by title, then id',
        description:
          '`search` matches title, album and artist names (case-insensitive substring); ' +
          '`genre` matches case-insensitively; `isrc` finds the song with that ISRC; `artistId` keeps ' +
          'one artist’s songs; `ids` (up to 100 ' +
          'comma-separated UUIDs) only those songs. `expand=artists` adds each song’s artists. ' +
          'Paged by `page` (with `total`) or, with `cursor` (empty for the first page), by cursor: ' +
          'then `pagination` is `{ limit, nextCursor }` and pages stay exact under inserts.',
        errors: ['VALIDATION_FAILED'],
      }),
    )
    .input(listSongsInput)
    .output(songListSchema)
    .query(({ ctx, input }) => songs.listSongs(ctx, input)),

  create: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/songs',
        tag: 'songs',
        summary: 'Create a song (admin, or an artist account for its own artists)',
        description:
          'An artist account’s `artistIds` must include an artist linked to it; omitted, it ' +
          'defaults to all of them.',
        status: 201,
        errors: ['FORBIDDEN', 'CONFLICT'],
      }),
    )
    .input(createSongInput)
    .output(songSchema)
    .mutation(({ ctx, input }) => songs.createSong(ctx, input)),

  get: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/songs/{songId}',
        tag: 'songs',
        summary: 'A song',
        description:
          '`expand=artists` adds the song’s artists (`artists`). The ETag is of the answer as sent: ' +
          'send `If-Match` with the tag of a read without `expand`.',
        errors: ['VALIDATION_FAILED'],
      }),
    )
    .input(getSongInput)
    .output(songReadSchema)
    .query(({ ctx, input }) => songs.getSong(ctx, input)),

  update: authedProcedure
    .meta(
      rest({
        method: 'PATCH',
        path: '/songs/{songId}',
        tag: 'songs',
        summary: 'Change some fields of a song (admin, or a user linked to one of its artists)',
        description: 'A given `artistIds` replaces the song’s artists, in its order.',
        errors: ['FORBIDDEN', 'CONFLICT'],
      }),
    )
    .input(patchSongInput)
    .output(songSchema)
    .mutation(({ ctx, input }) => songs.patchSong(ctx, input)),

  delete: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/songs/{songId}',
        tag: 'songs',
        summary: 'Delete a song; it leaves every playlist and artist link',
        status: 204,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(songIdInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => songs.deleteSong(ctx, input.songId)),
});
