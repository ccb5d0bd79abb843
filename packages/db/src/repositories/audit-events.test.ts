import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ageAuditEvents, createTestDatabase, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { insertAuditEvent, listAuditEvents, removeOldAuditEvents } from './audit-events';
import { removeExpired } from './housekeeping';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

async function record(targetId: string, action = 'song.updated'): Promise<string> {
  const id = uuidv7();
  await insertAuditEvent(database.db, {
    id,
    actorUserId: null,
    actorApiKeyId: null,
    action,
    targetType: 'song',
    targetId,
    changes: { title: { before: 'a', after: 'b' }, password: 'changed' },
    requestId: 'req-1',
    address: '127.0.0.1',
  });
  return id;
}

const ageDays = (ids: string[], days: number) => ageAuditEvents(database.db, ids, days * 86_400);

const left = async (targetId: string) =>
  (await listAuditEvents(database.db, { targetId, limit: 100 })).map((row) => row.id).sort();

describe('audit events', () => {
  it('stores the changes as JSON and reads them back newest first, by keyset', async () => {
    const target = uuidv7();
    const ids = [await record(target), await record(target), await record(target, 'song.deleted')];
    const [newest, ...rest] = await listAuditEvents(database.db, { targetId: target, limit: 100 });
    expect(newest!.changes).toEqual({ title: { before: 'a', after: 'b' }, password: 'changed' });
    // Whole milliseconds, as the list's cursor carries them.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from audit_events
      where target_id = ${target} and extract(microseconds from at)::int % 1000 <> 0`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
    const all = [newest!, ...rest];
    expect(all.map((row) => row.id)).toEqual([...ids].reverse());
    const after = { at: all[0]!.at, id: all[0]!.id };
    expect(
      (await listAuditEvents(database.db, { targetId: target, after, limit: 1 })).map((r) => r.id),
    ).toEqual([ids[1]]);
    expect(
      (await listAuditEvents(database.db, { targetId: target, action: 'song.deleted', limit: 10 })).length,
    ).toBe(1);
  });

  it('removes events older than the retention, oldest first, within its bound', async () => {
    const target = uuidv7();
    const old = [await record(target), await record(target), await record(target)];
    const young = [await record(target), await record(target)];
    await ageDays(old, 31);
    await ageDays(young.slice(0, 1), 29);
    expect(await removeOldAuditEvents(database.db, { retentionDays: 30, limit: 2 })).toBe(2);
    expect(await left(target)).toHaveLength(3);
    expect(await removeOldAuditEvents(database.db, { retentionDays: 30, limit: 2 })).toBe(1);
    expect(await left(target)).toEqual([...young].sort());
    expect(await removeOldAuditEvents(database.db, { retentionDays: 30, limit: 2 })).toBe(0);
  });

  it('is part of the housekeeping, a year by default', async () => {
    const target = uuidv7();
    const yearOld = [await record(target)];
    const monthsOld = [await record(target)];
    await ageDays(yearOld, 366);
    await ageDays(monthsOld, 200);
    const byDefault = await removeExpired(database.db, { limit: 1000, throttleWindowSeconds: 900 });
    expect(byDefault.auditEvents).toBeGreaterThanOrEqual(1);
    expect(await left(target)).toEqual(monthsOld);
    const shorter = await removeExpired(database.db, {
      limit: 1000,
      throttleWindowSeconds: 900,
      auditRetentionDays: 100,
    });
    expect(shorter.auditEvents).toBeGreaterThanOrEqual(1);
    expect(await left(target)).toEqual([]);
  });
});
