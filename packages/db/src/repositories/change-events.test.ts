import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/index';
import { createDatabase } from '../client';
import { uuidv7 } from '../ids';
import type { Db } from '../schema';
import {
  type ChangeReader,
  insertChanges,
  type NewChange,
  readChanges,
  removeOldChanges,
  SEQUENCE_BATCH,
  sequenceChanges,
} from './change-events';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());
const db = database.db;

const ADMIN: ChangeReader = { admin: true, userId: uuidv7() };

function change(fields: Partial<NewChange> = {}): NewChange {
  const id = uuidv7();
  return {
    id: uuidv7(),
    type: 'song.updated',
    resourceType: 'song',
    resourceId: id,
    data: { id },
    audience: 'everyone',
    ownerId: null,
    redacted: null,
    ...fields,
  };
}

/** Every event after `after` that `reader` may see, read `limit` at a time as a client would. */
async function readAll(on: Db, after?: string, reader = ADMIN, limit = 1000) {
  const ids: string[] = [];
  let cursor = after;
  for (;;) {
    await sequenceChanges(on);
    const page = await readChanges(on, { after: cursor, types: undefined, reader, limit });
    ids.push(...page.rows.map((row) => row.id));
    if (page.scannedTo === cursor || (page.rows.length === 0 && page.scannedTo === page.head)) {
      return { ids, cursor: page.scannedTo };
    }
    cursor = page.scannedTo;
  }
}

const head = async () => (await readAll(db)).cursor;

describe('the change-feed outbox', () => {
  it('numbers committed events only, so a reader never passes one that commits later', async () => {
    const start = await head();
    const first = change();
    const second = change();
    // `first` begins (and writes) before `second` but commits after it.
    const early = await db.startTransaction().execute();
    try {
      await insertChanges(early, [first]);
      if (database.url === undefined) {
        // The embedded database has one connection: transactions cannot interleave there.
        await early.commit().execute();
        await insertChanges(db, [second]);
        expect((await readAll(db, start)).ids).toEqual([first.id, second.id]);
        return;
      }
      await insertChanges(db, [second]);
      const seen = await readAll(db, start);
      expect(seen.ids).toEqual([second.id]);
      await early.commit().execute();
      // The reader goes on from where it was: the late commit is after it, not skipped.
      expect((await readAll(db, seen.cursor)).ids).toEqual([first.id]);
      // And a new reader sees them in commit order.
      expect((await readAll(db, start)).ids).toEqual([second.id, first.id]);
    } finally {
      if (!early.isCommitted) await early.rollback().execute();
    }
  });

  it('gives no position to the events of a transaction that rolled back', async () => {
    const start = await head();
    const lost = change();
    const trx = await db.startTransaction().execute();
    await insertChanges(trx, [lost]);
    await trx.rollback().execute();
    const kept = change();
    await insertChanges(db, [kept]);
    expect((await readAll(db, start)).ids).toEqual([kept.id]);
  });

  it('shows each reader what its audience allows', async () => {
    const start = await head();
    const owner = uuidv7();
    const someone: ChangeReader = { admin: false, userId: uuidv7() };
    const ownerReader: ChangeReader = { admin: false, userId: owner };
    const everyone = change();
    const admins = change({ type: 'user.updated', resourceType: 'user', audience: 'admins' });
    const own = change({
      type: 'playlist.updated',
      resourceType: 'playlist',
      audience: 'owner',
      ownerId: owner,
    });
    const madePrivate = change({
      type: 'playlist.updated',
      resourceType: 'playlist',
      audience: 'owner',
      ownerId: owner,
      data: { id: 'p', name: 'secret', isPublic: false },
      redacted: { id: 'p', isPublic: false },
    });
    await insertChanges(db, [everyone, admins, own, madePrivate]);
    await sequenceChanges(db);
    const read = async (reader: ChangeReader) =>
      (await readChanges(db, { after: start, types: undefined, reader, limit: 100 })).rows.map((row) => [
        row.id,
        row.data,
      ]);
    expect(await read(ADMIN)).toEqual([
      [everyone.id, everyone.data],
      [admins.id, admins.data],
      [own.id, own.data],
      [madePrivate.id, madePrivate.data],
    ]);
    expect(await read(ownerReader)).toEqual([
      [everyone.id, everyone.data],
      [own.id, own.data],
      [madePrivate.id, madePrivate.data],
    ]);
    expect(await read(someone)).toEqual([
      [everyone.id, everyone.data],
      [madePrivate.id, { id: 'p', isPublic: false }],
    ]);
    const songsOnly = await readChanges(db, {
      after: start,
      types: ['user.updated'],
      reader: ADMIN,
      limit: 100,
    });
    expect(songsOnly.rows.map((row) => row.id)).toEqual([admins.id]);
  });

  it('pages by position: a full page ends at its last event, a short one at the head', async () => {
    const start = await head();
    const events = Array.from({ length: 5 }, () => change());
    await insertChanges(db, events);
    await sequenceChanges(db);
    const page = await readChanges(db, { after: start, types: undefined, reader: ADMIN, limit: 2 });
    expect(page.rows.map((row) => row.id)).toEqual([events[0]!.id, events[1]!.id]);
    expect(page.scannedTo).toBe(page.rows[1]!.position);
    const rest = await readChanges(db, { after: page.scannedTo, types: undefined, reader: ADMIN, limit: 10 });
    expect(rest.rows.map((row) => row.id)).toEqual(events.slice(2).map((e) => e.id));
    expect(rest.scannedTo).toBe(rest.head);
    // Positions are dense: one more each.
    const positions = [...page.rows, ...rest.rows].map((row) => Number(row.position));
    expect(positions).toEqual(positions.map((_, i) => positions[0]! + i));
  });

  it('numbers a backlog larger than one batch in order', async () => {
    const start = await head();
    const events = Array.from({ length: SEQUENCE_BATCH + 7 }, () => change());
    await insertChanges(db, events);
    expect(await sequenceChanges(db)).toBe(SEQUENCE_BATCH + 7);
    expect((await readAll(db, start)).ids).toEqual(events.map((e) => e.id));
  });

  it('removes only the oldest run of events past the retention, and moves the horizon', async () => {
    const before = await readAll(db);
    const events = Array.from({ length: 4 }, () => change());
    for (const event of events) await insertChanges(db, [event]);
    await sequenceChanges(db);
    // Everything so far is old except the third new event.
    await sql`update change_events set at = '2020-01-01T00:00:00Z' where id <> ${events[2]!.id}`.execute(db);
    await removeOldChanges(db, { retentionDays: 30, limit: 100_000 });
    const page = await readChanges(db, { after: undefined, types: undefined, reader: ADMIN, limit: 100 });
    // The third is young, so it and everything after it stays (the fourth is old but after it).
    expect(page.rows.map((row) => row.id)).toEqual([events[2]!.id, events[3]!.id]);
    expect(BigInt(page.horizon)).toBe(BigInt(page.rows[0]!.position) - 1n);
    expect(BigInt(before.cursor)).toBeLessThan(BigInt(page.horizon));
  });
});

describe.skipIf(database.url === undefined)('the change feed across instances', () => {
  it('gives a reader that alternates instances every event once, while writers commit out of order', async () => {
    const other = await createDatabase({
      databaseUrl: database.url!,
      directUrl: database.directUrl,
      pooler: database.pooler,
      poolMax: 4,
    });
    try {
      const start = await head();
      const written: string[] = [];
      const seen: string[] = [];
      let cursor = start;
      let writing = true;
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // Four writers, each holding its transaction open a random while after writing.
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 15; i++) {
          const events = [change(), change()];
          await (w % 2 === 0 ? db : other.db).transaction().execute(async (trx) => {
            await insertChanges(trx, events);
            await pause(Math.random() * 20);
          });
          written.push(...events.map((e) => e.id));
        }
      });
      const reader = (async () => {
        for (let turn = 0; writing || turn % 2 === 1; turn++) {
          const on = turn % 2 === 0 ? db : other.db;
          await sequenceChanges(on);
          const page = await readChanges(on, { after: cursor, types: undefined, reader: ADMIN, limit: 7 });
          seen.push(...page.rows.map((row) => row.id));
          cursor = page.scannedTo;
          await pause(3);
        }
      })();
      await Promise.all(writers);
      writing = false;
      await reader;
      seen.push(...(await readAll(other.db, cursor)).ids);
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual([...written].sort());
    } finally {
      await other.close();
    }
  });
});
