import { IDS } from '../examples';
import type { OperationDoc } from '../types';

export const auditDocs: Record<string, OperationDoc> = {
  'auditEvents.list': {
    description:
      'Filters combine: `targetType` and `targetId` (the record written), `actorId` (the user who ' +
      'wrote), `action`, `since` (inclusive) and `until` (exclusive). A page holds `limit` events ' +
      '(1 to 100, default 20); follow `nextCursor` until it is null. `changes` holds each changed ' +
      'field as `{ "before", "after" }` (a creation from null, a deletion to null; a song linked to ' +
      'or unlinked from an artist, or added to or removed from a playlist, as `songId`); a ' +
      'password appears only as the string `"changed"`. An update that changes only the role is ' +
      '`user.role_changed`, only the password `user.password_changed`; a playlist replace that only ' +
      'reorders its songs is `playlist.songs_reordered`. `actor.userId` is null for an anonymous ' +
      'sign-up; a password reset confirmed with a mailed link names the account’s own user. ' +
      'Events are removed after AUDIT_RETENTION_DAYS days (365 by default).',
    query: { targetType: 'song', targetId: IDS.song, action: 'song.updated', limit: 20 },
    response: {
      data: [
        {
          id: '01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1b',
          at: '2026-11-22T12:00:00Z',
          actor: { userId: IDS.user, apiKeyId: null },
          action: 'song.updated',
          target: { type: 'song', id: IDS.song },
          changes: { title: { before: 'Blue in Green', after: 'Blue in Green (take 2)' } },
          requestId: '5f0c6f1e-2a4b-4c1d-9e8f-0a1b2c3d4e5f',
          address: '203.0.113.7',
        },
      ],
      nextCursor: null,
    },
    errors: {
      FORBIDDEN: 'The caller is not an admin',
      VALIDATION_FAILED:
        'An unknown `targetType` or `action`, a `since` or `until` that is not an ISO 8601 date-time, ' +
        'or a `cursor` this list did not give out (`field` names the parameter)',
    },
  },
};
