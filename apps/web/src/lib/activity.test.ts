import { describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { startFakeApi } from '../../test/fake-api';
import { records, seedEvent } from '../../test/fake-records';
import {
  ACTIVITY_PAGE,
  type ActivityView,
  type AuditEvent,
  activityInput,
  activityQuery,
  actorWords,
  changeRows,
  historyHref,
  keyPrefixesOf,
  targetHref,
} from './activity';
import { toProblem } from './errors';
import { readQuery, writeQuery } from './url-state';

startFakeApi();

const SONG = '0190c0de-0000-7000-8000-000000000001';
const ADA = '0190c0de-0000-7000-8000-0000000000a1';
const KEY = '0190c0de-0000-7000-8000-0000000000c1';
const NONE: ActivityView = { user: '', type: '', id: '', action: '' };

describe('the activity filters in the address', () => {
  it('reads the filters it knows and drops malformed ones', () => {
    expect(readQuery(activityQuery, `user=${ADA}&type=song&id=${SONG}&action=song.updated`)).toEqual({
      user: ADA,
      type: 'song',
      id: SONG,
      action: 'song.updated',
    });
    expect(readQuery(activityQuery, 'user=ada&type=album&id=12&action=song.sung')).toEqual(NONE);
  });

  it('writes a record’s history as the page reads it back', () => {
    const href = historyHref('playlist', SONG);
    expect(href).toBe(`/activity?type=playlist&id=${SONG}`);
    expect(readQuery(activityQuery, href.split('?')[1]!)).toEqual({ ...NONE, type: 'playlist', id: SONG });
    expect(writeQuery(activityQuery, NONE)).toBe('');
  });

  it('asks for only the filters set, a page at a time, from the cursor', () => {
    expect(activityInput(NONE)).toEqual({ limit: ACTIVITY_PAGE });
    expect(activityInput({ user: ADA, type: 'song', id: SONG, action: 'song.deleted' }, 'c1')).toEqual({
      limit: ACTIVITY_PAGE,
      actorId: ADA,
      targetType: 'song',
      targetId: SONG,
      action: 'song.deleted',
      cursor: 'c1',
    });
  });
});

describe('an event in words', () => {
  it('links a target to its record’s page where it has one', () => {
    expect(targetHref({ type: 'song', id: SONG })).toBe(`/songs/${SONG}`);
    expect(targetHref({ type: 'artist', id: SONG })).toBe(`/artists/${SONG}`);
    expect(targetHref({ type: 'playlist', id: SONG })).toBe(`/playlists/${SONG}`);
    expect(targetHref({ type: 'user', id: ADA })).toBe('/users');
    expect(targetHref({ type: 'webhook', id: KEY })).toBe('/account/webhooks');
    expect(targetHref({ type: 'api_key', id: KEY })).toBeNull();
  });

  it('shows changes as before and after, a password only as changed', () => {
    expect(
      changeRows({
        title: { before: 'Blue', after: 'Blue Hour' },
        artistIds: { before: [], after: ['a', 'b'] },
        isPublic: { before: false, after: true },
        album: { before: null, after: 'Night' },
        password: 'changed',
      }),
    ).toEqual([
      { field: 'title', before: 'Blue', after: 'Blue Hour' },
      { field: 'artists', before: '(none)', after: 'a, b' },
      { field: 'public', before: 'no', after: 'yes' },
      { field: 'album', before: '—', after: 'Night' },
      { field: 'password', before: '—', after: 'changed' },
    ]);
  });

  it('names who wrote: a username, anonymous, and the key it came through', () => {
    const names = new Map([[ADA, 'ada']]);
    expect(actorWords({ userId: ADA, apiKeyId: null }, names)).toEqual({ who: 'ada', via: null });
    expect(actorWords({ userId: null, apiKeyId: null }, names)).toEqual({ who: 'anonymous', via: null });
    expect(actorWords({ userId: ADA, apiKeyId: KEY }, names)).toEqual({
      who: 'ada',
      via: 'via API key 0190c0de',
    });
    expect(actorWords({ userId: ADA, apiKeyId: KEY }, names, new Map([[KEY, 'mc_abcdefghi']]))).toEqual({
      who: 'ada',
      via: 'via API key mc_abcdefghi',
    });
    // Not yet answered.
    expect(actorWords({ userId: SONG, apiKeyId: null }, names).who).toBe('…');
  });

  it('learns key prefixes from the log’s own key events', () => {
    const made = {
      action: 'api_key.created',
      target: { type: 'api_key', id: KEY },
      changes: { prefix: { before: null, after: 'mc_abcdefghi' } },
    } as unknown as AuditEvent;
    expect(keyPrefixesOf([made])).toEqual(new Map([[KEY, 'mc_abcdefghi']]));
  });
});

describe('the activity log through the console’s /api/trpc', () => {
  it('pages newest first with nextCursor until it runs out, each event once', async () => {
    for (let i = 0; i < ACTIVITY_PAGE + 5; i++) {
      seedEvent(
        {
          action: 'song.updated',
          target: { type: 'song', id: SONG },
          actor: { userId: ADA, apiKeyId: null },
        },
        i,
      );
    }
    const client = consoleClient();
    const first = await client.auditEvents.list.query(activityInput(NONE));
    expect(first.data).toHaveLength(ACTIVITY_PAGE);
    expect(first.nextCursor).not.toBeNull();
    const second = await client.auditEvents.list.query(activityInput(NONE, first.nextCursor!));
    expect(second.nextCursor).toBeNull();
    const all = [...first.data, ...second.data];
    expect(all.map((event) => event.id)).toEqual(
      [...records.events].sort((a, b) => b.at.localeCompare(a.at)).map((event) => event.id),
    );
  });

  it('filters by record and action as the page asks', async () => {
    const other = '0190c0de-0000-7000-8000-000000000002';
    seedEvent({ action: 'song.created', target: { type: 'song', id: SONG } }, 3);
    seedEvent({ action: 'song.updated', target: { type: 'song', id: SONG } }, 2);
    seedEvent({ action: 'song.updated', target: { type: 'song', id: other } }, 1);
    const client = consoleClient();
    const history = await client.auditEvents.list.query(activityInput({ ...NONE, type: 'song', id: SONG }));
    expect(history.data.map((event) => event.action)).toEqual(['song.updated', 'song.created']);
    const updates = await client.auditEvents.list.query(activityInput({ ...NONE, action: 'song.updated' }));
    expect(updates.data.map((event) => event.target.id)).toEqual([other, SONG]);
  });

  it('is refused to anyone but an admin, in the API’s words', async () => {
    const refused = await consoleClient('access-listener')
      .auditEvents.list.query(activityInput(NONE))
      .catch((error: unknown) => error);
    expect(toProblem(refused)).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });
});
