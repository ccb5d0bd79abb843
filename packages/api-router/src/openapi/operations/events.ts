import { IDS } from '../examples';
import type { OperationDoc } from '../types';

export const eventDocs: Record<string, OperationDoc> = {
  'events.list': {
    description:
      'A reader starts without `after` (from the oldest event kept) and then passes each answer’s ' +
      '`nextCursor` as `after`: it sees every event once and none twice, in the order the writes ' +
      'committed, whichever instance answers, also while writes commit in another order than ' +
      'they began. `nextCursor` is never null: when it is the cursor sent, there is nothing new ' +
      'yet (ask again later with it); a page can be empty with a new cursor when the read only ' +
      'passed events the caller may not see (read on). `types` ' +
      'filters (`song.created,playlist.*`); `limit` is 1 to 1000 (default 100). Anyone signed in ' +
      'reads song and artist events; playlist events of their own and of public playlists (a ' +
      'public playlist someone made private shows only `{id, isPublic: false}`); admins read ' +
      'every event, `user.*` included. Linking a song to an artist or unlinking it is a ' +
      '`song.updated`; adding, removing or reordering a playlist’s songs a `playlist.updated`. A ' +
      'write that changes other records names them too: a deleted song is a `playlist.updated` ' +
      'for each playlist that held it, a deleted artist a `song.updated` for each of its songs, a ' +
      'deleted user a `playlist.deleted` for each of their playlists and an `artist.updated` for ' +
      'an artist they managed. Events are kept EVENT_RETENTION_DAYS days (30 by default); a ' +
      'cursor older than that is answered 410 `GONE`: read again from the start.',
    query: { types: 'song.*', limit: 100 },
    response: {
      data: [
        {
          id: '01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1c',
          type: 'song.updated',
          at: '2026-11-22T12:00:00Z',
          resource: { type: 'song', id: IDS.song },
          data: {
            id: IDS.song,
            title: 'Blue in Green (take 2)',
            album: 'Kind of Blue',
            genre: 'Jazz',
            duration: 337,
            releaseYear: 1959,
            isrc: null,
            externalId: null,
            artistIds: [IDS.artist],
            createdAt: '2026-11-22T11:00:00Z',
            updatedAt: '2026-11-22T12:00:00Z',
          },
        },
      ],
      nextCursor: 'Y2hhbmdlcy40Mg',
    },
    errors: {
      GONE: 'The cursor is older than the events kept (EVENT_RETENTION_DAYS): read again without `after`',
      VALIDATION_FAILED:
        'An unknown type in `types`, or an `after` this feed did not give out (`field` names the parameter)',
    },
  },
};
