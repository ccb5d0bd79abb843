import { IDS, playlistExample } from '../examples';
import type { OperationDoc } from '../types';

const NO_PLAYLIST = 'No playlist with this id (or a malformed id)';
const NOT_OWNER = 'Not the playlist’s owner (nor an admin)';
const PRIVATE = 'The playlist is private and not yours';

export const playlistDocs: Record<string, OperationDoc> = {
  'playlists.list': {
    description:
      '`sort` takes `name` and `createdAt`. A malformed `userId`, `visibility` other than `public` or ' +
      'an unknown `sort` field is 400.',
    query: { visibility: 'public', sort: 'name', page: 1, limit: 20 },
    errors: { FORBIDDEN: 'A non-admin naming another user’s `userId` without `visibility=public`' },
  },
  'playlists.create': {
    description:
      'The caller owns the new playlist (admins may create one for `userId`). `songIds` sets the ' +
      'initial songs in order; each must name a song, once. Send an `Idempotency-Key` to retry safely.',
    body: 'PlaylistCreate',
    request: { name: 'Morning run', description: 'Fast, then faster.', songIds: [IDS.song, IDS.otherSong] },
    response: playlistExample,
    errors: {
      FORBIDDEN: 'A non-admin sending a `userId` other than their own',
      VALIDATION_FAILED:
        'A field failed validation, e.g. an unknown or repeated song at `songIds.N`, or an unknown `userId`',
    },
  },
  'playlists.get': {
    description:
      'Your own playlists, and any public one. Revalidate with `If-None-Match` to get 304 when unchanged.',
    errors: { FORBIDDEN: PRIVATE, NOT_FOUND: NO_PLAYLIST },
  },
  'playlists.replace': {
    description:
      'Send the `ETag` you read as `If-Match` so a concurrent change (another device reordering the ' +
      'same playlist) is not overwritten.',
    body: 'PlaylistUpdate',
    request: { name: 'Morning run', isPublic: true, songIds: [IDS.otherSong, IDS.song] },
    response: { ...playlistExample, isPublic: true, description: null, songIds: [IDS.otherSong, IDS.song] },
    errors: {
      FORBIDDEN: NOT_OWNER,
      NOT_FOUND: NO_PLAYLIST,
      VALIDATION_FAILED: 'A field failed validation, e.g. an unknown or repeated song at `songIds.N`',
    },
  },
  'playlists.delete': {
    description: 'Owner only. The songs stay in the catalogue.',
    errors: { FORBIDDEN: NOT_OWNER, NOT_FOUND: NO_PLAYLIST },
  },
  'playlists.songs': {
    description:
      'The full song records of `songIds`, a page at a time. Your own playlists, and any public one.',
    errors: { FORBIDDEN: PRIVATE, NOT_FOUND: NO_PLAYLIST },
  },
  'playlists.addSong': {
    description:
      'Owner only. Send an `Idempotency-Key` to retry safely: a replayed append answers 204 again ' +
      'instead of 409.',
    body: 'PlaylistSongAdd',
    request: { songId: IDS.song },
    errors: {
      FORBIDDEN: NOT_OWNER,
      NOT_FOUND: NO_PLAYLIST,
      CONFLICT: 'The song is already in the playlist, or the playlist is full',
      VALIDATION_FAILED: '`songId` missing, malformed or naming no song',
    },
  },
  'playlists.removeSong': {
    description: 'Owner only. The song stays in the catalogue and in other playlists.',
    errors: { FORBIDDEN: NOT_OWNER, NOT_FOUND: 'No such playlist, or the song is not in it' },
  },
};
