import { uuidv7 } from '@music/db';
import { ageAuditEvents } from '@music/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness, failureOf } from '../../../testing/index';
import { changesOf } from '../../audit';
import { decodeCursor, encodeCursor } from './audit-events.service';

const h = await createRouterHarness();
afterAll(() => h.close());

const admin = await h.makeActor('admin');
const artistAccount = await h.makeActor('artist');
const listener = await h.makeActor('user');

describe('auditEvents.list', () => {
  it('is for admins only', async () => {
    expect(await appCode(h.caller(listener).auditEvents.list({}))).toBe('FORBIDDEN');
    expect(await appCode(h.caller(artistAccount).auditEvents.list({}))).toBe('FORBIDDEN');
    // 403 before the query is looked at.
    expect(await appCode(h.caller(listener).auditEvents.list({ action: 'nope' }))).toBe('FORBIDDEN');
  });

  it('pages newest first by cursor, exactly, and filters by target, actor, action and time', async () => {
    const writer = await h.makeActor('admin');
    const songs = [];
    for (let i = 0; i < 5; i++) {
      songs.push(await h.caller(writer, `10.0.0.${i}`).songs.create({ title: `P${i}`, duration: 60 }));
    }
    await h.caller(writer).songs.update({ songId: songs[0]!.id, title: 'P0 again' });
    const mine = await h.caller(admin).auditEvents.list({ actorId: writer.user.id, limit: 100 });
    expect(mine.nextCursor).toBeNull();
    expect(mine.data.map((e) => [e.action, e.target.id])).toEqual([
      ['song.updated', songs[0]!.id],
      ...[...songs].reverse().map((s) => ['song.created', s.id]),
    ]);
    expect(mine.data[1]).toMatchObject({
      actor: { userId: writer.user.id, apiKeyId: null },
      target: { type: 'song', id: songs[4]!.id },
      address: '10.0.0.4',
      changes: { title: { before: null, after: 'P4' } },
    });
    expect(mine.data[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // Pages of 2 give the same events in the same order, then a null cursor.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await h.caller(admin).auditEvents.list({ actorId: writer.user.id, limit: 2, cursor });
      seen.push(...page.data.map((e) => e.id));
      if (page.nextCursor === null) break;
      expect(page.data).toHaveLength(2);
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(mine.data.map((e) => e.id));

    const target = await h.caller(admin).auditEvents.list({ targetType: 'song', targetId: songs[0]!.id });
    expect(target.data.map((e) => e.action)).toEqual(['song.updated', 'song.created']);
    const updates = await h
      .caller(admin)
      .auditEvents.list({ actorId: writer.user.id, action: 'song.updated' });
    expect(updates.data.map((e) => e.target.id)).toEqual([songs[0]!.id]);
    expect(
      (await h.caller(admin).auditEvents.list({ targetType: 'user', targetId: songs[0]!.id })).data,
    ).toEqual([]);

    // Time: move the oldest two an hour back; `until` is exclusive, `since` inclusive.
    const old = mine.data.slice(-2).map((e) => e.id);
    await ageAuditEvents(h.database.db, old, 3600);
    const cut = new Date(Date.now() - 30 * 60_000).toISOString();
    const before = await h.caller(admin).auditEvents.list({ actorId: writer.user.id, until: cut });
    expect(before.data.map((e) => e.id)).toEqual(old);
    const after = await h.caller(admin).auditEvents.list({ actorId: writer.user.id, since: cut });
    expect(after.data).toHaveLength(4);
    const moved = before.data[0]!.at;
    const exact = await h
      .caller(admin)
      .auditEvents.list({ actorId: writer.user.id, since: moved, until: moved });
    expect(exact.data).toEqual([]);
  });

  it('answers 422 on a bad targetType, action, since, until or cursor, naming each', async () => {
    const error = await failureOf(
      h.caller(admin).auditEvents.list({
        targetType: 'album',
        action: 'song.played',
        since: 'yesterday',
        until: '2026-13-01T00:00:00Z',
        cursor: 'not-a-cursor',
      }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors?.map((e) => e.field)).toEqual(['targetType', 'action', 'since', 'until', 'cursor']);
    const forged = Buffer.from('12.not-an-id').toString('base64url');
    expect(await appCode(h.caller(admin).auditEvents.list({ cursor: forged }))).toBe('VALIDATION_FAILED');
    expect(await appCode(h.caller(admin).auditEvents.list({ cursor: 'a+b/' }))).toBe('VALIDATION_FAILED');
    // Offsets are date-times too.
    const offset = await h
      .caller(admin)
      .auditEvents.list({ since: '2026-11-22T12:00:00.123+02:00', limit: 1 });
    expect(offset.data.length).toBeLessThanOrEqual(1);
  });

  it('round-trips its cursor and diffs only the fields that changed', () => {
    const position = { at: new Date('2026-11-22T12:00:00.123Z'), id: uuidv7() };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    expect(decodeCursor('')).toBeUndefined();
    expect(changesOf({ a: 1, b: [1], c: null }, { a: 1, b: [2], c: null }, ['a', 'b', 'c'])).toEqual({
      b: { before: [1], after: [2] },
    });
  });
});
