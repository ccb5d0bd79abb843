import { artistExample, IDS, songExample } from '../examples';
import type { OperationDoc } from '../types';

const NO_ARTIST = 'No artist with this id (or a malformed id)';
const NO_SONG = 'No song with this id (or a malformed id)';
const ARTIST_WRITER = 'Neither an admin nor the artist’s linked user (`userId`)';
const SONG_WRITER = 'Neither an admin nor a user linked to one of the song’s artists';

/** A song's writable fields, as a request sends them: the example record without its server fields. */
function songFieldsOf({ id: _id, createdAt: _c, updatedAt: _u, ...fields }: typeof songExample) {
  return fields;
}

export const catalogueDocs: Record<string, OperationDoc> = {
  'artists.list': {
    description:
      'Any signed-in caller. `search` matches a substring of the name, case-insensitively; `ids` ' +
      'keeps only the artists it names (ids that name nothing are absent); filters combine. `sort` ' +
      'takes `name` and `createdAt` (default: by name). A malformed id in `ids`, more than 100 ' +
      'of them, or an unknown `sort` field is 400.',
    query: { search: 'engine', sort: 'name', page: 1, limit: 20 },
  },
  'artists.create': {
    description:
      'Admins only. `userId` links the artist to an account with role `artist`, which may then ' +
      'edit it and its songs. Send an `Idempotency-Key` to retry safely.',
    body: 'ArtistCreate',
    request: {
      name: 'The Analytical Engines',
      bio: 'Four-piece from Manchester.\nSynths, drums and a punched-card light show.',
      userId: IDS.artistUser,
    },
    response: artistExample,
    errors: {
      FORBIDDEN: 'Not an admin',
      VALIDATION_FAILED: 'A field failed validation (e.g. `userId` names no user with role `artist`)',
    },
  },
  'artists.get': {
    description: 'Any signed-in caller. Revalidate with `If-None-Match` to get 304 when unchanged.',
    errors: { NOT_FOUND: NO_ARTIST },
  },
  'artists.replace': {
    description:
      'Full replace: `name` is required and an omitted `bio` becomes null. Send the `ETag` you ' +
      'read as `If-Match` so a concurrent change is not overwritten.',
    body: 'ArtistUpdate',
    request: { name: 'The Analytical Engines', bio: null },
    response: { ...artistExample, bio: null },
    errors: { FORBIDDEN: `${ARTIST_WRITER}, or a non-admin changing \`userId\``, NOT_FOUND: NO_ARTIST },
  },
  'artists.update': {
    description:
      'Partial: only the fields sent change; `null` clears `bio` or `userId`. Send the `ETag` you ' +
      'read as `If-Match` so a concurrent change is not overwritten.',
    body: 'ArtistPatch',
    request: { bio: 'Five-piece now, with a theremin.' },
    response: { ...artistExample, bio: 'Five-piece now, with a theremin.' },
    errors: { FORBIDDEN: `${ARTIST_WRITER}, or a non-admin changing \`userId\``, NOT_FOUND: NO_ARTIST },
  },
  'artists.delete': {
    description: 'Admins only. The artist’s songs stay, without this artist in their `artistIds`.',
    errors: { FORBIDDEN: 'Not an admin', NOT_FOUND: NO_ARTIST },
  },
  'artists.songs': {
    description: 'Any signed-in caller. Ordered by title, then id (there is no `sort`).',
    errors: { NOT_FOUND: NO_ARTIST },
  },
  'artists.linkSong': {
    description:
      'Adds the artist at the end of the song’s `artistIds` (which changes the song’s `ETag`). ' +
      'Linking an already linked song is a 204 too.',
    errors: { FORBIDDEN: ARTIST_WRITER, NOT_FOUND: 'No such artist or no such song' },
  },
  'artists.unlinkSong': {
    description: 'Removes the artist from the song’s `artistIds`; the song stays.',
    errors: {
      FORBIDDEN: ARTIST_WRITER,
      NOT_FOUND: 'No such artist, no such song, or the song is not linked to the artist',
    },
  },

  'songs.export': {
    description:
      'Any signed-in caller, or an API key with `catalogue:read`. The file is written as the songs ' +
      'are read, a thousand at a time, so it starts at once and the service holds no more than that ' +
      'in memory, whatever the size of the catalogue; gzip-compressed when `Accept-Encoding` allows. ' +
      'A song written during the export is in it if its id comes after the songs already written. ' +
      'Empty cells (CSV) and `null` (NDJSON) stand for no value. A failure once the file has begun ' +
      'cuts the connection: a file that does not end with a line break is incomplete.',
    query: { format: 'csv' },
  },
  'songs.list': {
    description:
      'Any signed-in caller. Filters combine. `sort` takes `title`, `album`, `releaseYear`, ' +
      '`duration` and `createdAt` (default: by title).',
    query: { search: 'engine', genre: 'synth-pop', sort: '-releaseYear,title', page: 1, limit: 20 },
  },
  'songs.create': {
    description:
      'Every id in `artistIds` must name an artist (else 422 on `artistIds.N`). Send an ' +
      '`Idempotency-Key` to retry safely: a repeat answers the first result again.',
    body: 'SongCreate',
    request: songFieldsOf(songExample),
    response: songExample,
    errors: {
      FORBIDDEN: 'Neither an admin nor an artist account linked to one of `artistIds`',
      CONFLICT: 'Another song has this `isrc` or `externalId`',
      VALIDATION_FAILED: 'A field failed validation, e.g. an unknown or repeated id at `artistIds.N`',
    },
  },
  'songs.get': {
    description: 'Any signed-in caller. Revalidate with `If-None-Match` to get 304 when unchanged.',
    errors: { NOT_FOUND: NO_SONG },
  },
  'songs.update': {
    description:
      'Partial: only the fields sent change; `null` clears `album`, `genre`, `releaseYear`, `isrc` or `externalId`. Send ' +
      'the `ETag` you read as `If-Match` so a concurrent change is not overwritten. There is no ' +
      '`PUT` on songs (405).',
    body: 'SongPatch',
    request: { genre: 'Electropop', artistIds: [IDS.artist] },
    response: { ...songExample, genre: 'Electropop' },
    errors: {
      FORBIDDEN: SONG_WRITER,
      NOT_FOUND: NO_SONG,
      CONFLICT: 'Another song has this `isrc` or `externalId`',
      VALIDATION_FAILED: 'A field failed validation, e.g. an unknown or repeated id at `artistIds.N`',
    },
  },
  'songs.delete': {
    description:
      'Gone from every playlist and artist. With `If-Match`, a stale ETag is 412 and nothing is deleted.',
    errors: { FORBIDDEN: SONG_WRITER, NOT_FOUND: NO_SONG },
  },

  'genres.list': {
    description:
      'New in 1.1: the distinct genres of the catalogue, for a filter menu. Any signed-in caller. ' +
      'Pass a `name` to `GET /songs?genre=` to list its songs.',
    query: { search: 'pop', page: 1, limit: 20 },
    response: {
      data: [
        { name: 'Electropop', songCount: 3 },
        { name: 'Synth-pop', songCount: 12 },
      ],
      pagination: { page: 1, limit: 20, total: 2 },
    },
  },
  'search.find': {
    description:
      'New in 1.2: for a search box that shows results as the user types. Any signed-in caller ' +
      '(an API key needs `catalogue:read`; without `playlists:read` it finds public playlists ' +
      'only). Ask only for the kinds you show (`types`), and open the full list ' +
      '(`GET /songs?search=…&sort=relevance`) when the user presses Enter. A term without any ' +
      'letter or digit finds nothing.',
    query: { q: 'sigur ro', types: 'songs,artists', limit: 5 },
    response: {
      songs: [
        {
          id: '0192f0c1-7c3e-7a11-b3c4-5d6e7f809112',
          title: 'Hoppípolla',
          album: 'Takk...',
          genre: 'Post-rock',
          duration: 268,
          releaseYear: 2005,
          isrc: 'ISUM70500001',
          externalId: null,
          artistIds: ['0192f0c1-7c3e-7a11-b3c4-5d6e7f809111'],
          createdAt: '2026-11-20T09:30:00Z',
          updatedAt: '2026-11-20T09:30:00Z',
        },
      ],
      artists: [
        {
          id: '0192f0c1-7c3e-7a11-b3c4-5d6e7f809111',
          name: 'Sigur Rós',
          bio: null,
          userId: null,
          createdAt: '2026-11-20T09:30:00Z',
          updatedAt: '2026-11-20T09:30:00Z',
        },
      ],
    },
  },
};
