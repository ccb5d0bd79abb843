import { emptyOutput } from '../../schemas';
import { authedProcedure, rest, router } from '../../trpc';
import { songListSchema } from '../songs/songs.schema';
import {
  artistIdInput,
  artistListSchema,
  artistSchema,
  artistSongInput,
  createArtistInput,
  listArtistSongsInput,
  listArtistsInput,
  patchArtistInput,
  replaceArtistInput,
} from './artists.schema';
import * as artists from './artists.service';

export const artistsRouter = router({
  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/artists',
        tag: 'artists',
        summary: 'List artists, ordered by name, then id',
        description:
          '`ids` (up to 100 comma-separated UUIDs) answers only those artists, in the same order ' +
          'and pages: pass `limit=100` to get all of them in one call.',
        errors: ['VALIDATION_FAILED'],
      }),
    )
    .input(listArtistsInput)
    .output(artistListSchema)
    .query(({ ctx, input }) => artists.listArtists(ctx, input)),

  create: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/artists',
        tag: 'artists',
        summary: 'Create an artist (admin only)',
        status: 201,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(createArtistInput)
    .output(artistSchema)
    .mutation(({ ctx, input }) => artists.createArtist(ctx, input)),

  get: authedProcedure
    .meta(rest({ method: 'GET', path: '/artists/{artistId}', tag: 'artists', summary: 'An artist' }))
    .input(artistIdInput)
    .output(artistSchema)
    .query(({ ctx, input }) => artists.getArtist(ctx, input.artistId)),

  replace: authedProcedure
    .meta(
      rest({
        method: 'PUT',
        path: '/artists/{artistId}',
        tag: 'artists',
        summary: 'Replace an artist (admin or its linked user; omitted fields become null)',
        description: 'Only admins may change `userId`; a linked user who omits it keeps the link.',
        errors: ['FORBIDDEN'],
      }),
    )
    .input(replaceArtistInput)
    .output(artistSchema)
    .mutation(({ ctx, input }) => artists.replaceArtist(ctx, input)),

  update: authedProcedure
    .meta(
      rest({
        method: 'PATCH',
        path: '/artists/{artistId}',
        tag: 'artists',
        summary: 'Change some fields of an artist (admin or its linked user)',
        description: 'Only admins may change `userId`.',
        errors: ['FORBIDDEN'],
      }),
    )
    .input(patchArtistInput)
    .output(artistSchema)
    .mutation(({ ctx, input }) => artists.patchArtist(ctx, input)),

  delete: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/artists/{artistId}',
        tag: 'artists',
        summary: 'Delete an artist (admin only); its songs stay, unlinked from it',
        status: 204,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(artistIdInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => artists.deleteArtist(ctx, input.artistId)),

  songs: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/artists/{artistId}/songs',
        tag: 'artists',
        summary: 'The artist’s songs, ordered by title, then id',
        description: '`expand=artists` adds each song’s artists; `cursor` pages by cursor (see GET /songs).',
        errors: ['VALIDATION_FAILED'],
      }),
    )
    .input(listArtistSongsInput)
    .output(songListSchema)
    .query(({ ctx, input }) => artists.listArtistSongs(ctx, input)),

  linkSong: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/artists/{artistId}/songs/{songId}',
        tag: 'artists',
        summary: 'Link a song to the artist (admin or its linked user; linking twice is fine)',
        status: 204,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(artistSongInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => artists.linkSong(ctx, input)),

  unlinkSong: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/artists/{artistId}/songs/{songId}',
        tag: 'artists',
        summary: 'Unlink a song from the artist (admin or its linked user); 404 if not linked',
        status: 204,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(artistSongInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => artists.unlinkSong(ctx, input)),
});
