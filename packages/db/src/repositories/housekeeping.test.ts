import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { claimHousekeeping, hurryHousekeeping, removeExpired } from './housekeeping';
import { claimIdempotencyKey, findIdempotencyKey } from './idempotency';
import { appendChunk, insertImport } from './imports';
import { countSignInAttempt } from './login-throttle';
import { addToBudgets } from './request-budgets';
import { insertRefreshToken, insertSession, revokeSession } from './sessions';
import { insertUser } from './users';
import { insertDeliveries } from './webhook-deliveries';
import { insertWebhook } from './webhooks';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

describe('housekeeping', () => {
  it('lets exactly one of many simultaneous claimers run a period', async () => {
    const job = `job-${uuidv7()}`;
    const claims = await Promise.all(
      Array.from({ length: 12 }, () => claimHousekeeping(database.db, job, 60)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimHousekeeping(database.db, job, 60)).toBe(false);
    // Due again once brought forward (a run that left work behind does this).
    await hurryHousekeeping(database.db, job, 0);
    expect(await claimHousekeeping(database.db, job, 60)).toBe(true);
  });

  it('removes expired and revoked sessions, expired refresh tokens and ended windows, within its bound', async () => {
    const db = database.db;
    const user = uuidv7();
    await insertUser(db, {
      id: user,
      username: 'h',
      email: `h-${user}@example.com`,
      password_hash: 'x',
      role: 'user',
    });
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 3_600_000);
    const live = uuidv7();
    const expired = [uuidv7(), uuidv7(), uuidv7()];
    const revoked = uuidv7();
    await insertSession(db, { id: live, userId: user, expiresAt: future });
    for (const id of expired) await insertSession(db, { id, userId: user, expiresAt: past });
    await insertSession(db, { id: revoked, userId: user, expiresAt: future });
    await revokeSession(db, revoked, 'test');
    // A spent token of a live session stays until its own expiry (its replay is how theft shows).
    const spent = `spent-${uuidv7()}`;
    const stale = `stale-${uuidv7()}`;
    await insertRefreshToken(db, { hash: spent, sessionId: live, expiresAt: future });
    await sql`update refresh_tokens set rotated_at = now() where token_hash = ${spent}`.execute(db);
    await insertRefreshToken(db, { hash: stale, sessionId: live, expiresAt: past });
    const address = `house-${uuidv7()}`;
    await countSignInAttempt(db, { email: `old-${uuidv7()}@example.com`, address, windowSeconds: 900 });
    await sql`update login_throttle set window_started_at = now() - interval '1 hour' where subject = ${address}`.execute(
      db,
    );

    const sessionsLeft = async () =>
      (await db.selectFrom('sessions').select('id').where('user_id', '=', user).execute())
        .map((r) => r.id)
        .sort();
    const tokensLeft = () =>
      db.selectFrom('refresh_tokens').select('token_hash').where('session_id', '=', live).execute();
    const first = await removeExpired(db, { limit: 2, throttleWindowSeconds: 900 });
    expect(first.sessions).toBe(2);
    expect(await sessionsLeft()).toHaveLength(3);
    const second = await removeExpired(db, { limit: 2, throttleWindowSeconds: 900 });
    expect(second.sessions).toBe(2);
    expect(await sessionsLeft()).toEqual([live]);
    expect(first.refreshTokens + second.refreshTokens).toBeGreaterThanOrEqual(1);
    expect(await tokensLeft()).toEqual([{ token_hash: spent }]);
    expect(first.throttleWindows + second.throttleWindows).toBeGreaterThanOrEqual(1);
    const windows = await db
      .selectFrom('login_throttle')
      .select('subject')
      .where('subject', '=', address)
      .execute();
    expect(windows).toEqual([]);
  });

  it('leaves a window that is still running', async () => {
    const address = `running-${uuidv7()}`;
    await countSignInAttempt(database.db, {
      email: `r-${uuidv7()}@example.com`,
      address,
      windowSeconds: 900,
    });
    await removeExpired(database.db, { limit: 1000, throttleWindowSeconds: 900 });
    const windows = await database.db
      .selectFrom('login_throttle')
      .select('attempts')
      .where('subject', '=', address)
      .execute();
    expect(windows).toEqual([{ attempts: 1 }]);
  });

  it('removes Idempotency-Key records past their 24 hours and request-budget windows that ended', async () => {
    const db = database.db;
    const caller = `idem-${uuidv7()}`;
    const claim = (key: string) =>
      claimIdempotencyKey(db, {
        caller,
        key,
        method: 'POST',
        path: '/v1/songs',
        bodyHash: 'h',
        attempt: uuidv7(),
      });
    await claim('old');
    await claim('young');
    await sql`update idempotency_keys set created_at = now() - interval '25 hours'
      where caller = ${caller} and key = 'old'`.execute(db);
    const budgetCaller = `budget-${uuidv7()}`;
    const { databaseNow } = await addToBudgets(db, [
      { caller: budgetCaller, windowStart: new Date(Date.now() - 10 * 60_000), delta: 1 },
      { caller: budgetCaller, windowStart: new Date(Date.now() + 60_000), delta: 1 },
    ]);
    expect(databaseNow).toBeDefined();

    const removed = await removeExpired(db, { limit: 1000, throttleWindowSeconds: 900 });
    expect(removed.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(removed.budgetWindows).toBeGreaterThanOrEqual(1);
    const keys = await db.selectFrom('idempotency_keys').select('key').where('caller', '=', caller).execute();
    expect(keys).toEqual([{ key: 'young' }]);
    expect(await findIdempotencyKey(db, { caller, key: 'young' })).toBeDefined();
    const windows = await db
      .selectFrom('request_budgets')
      .select('count')
      .where('caller', '=', budgetCaller)
      .execute();
    expect(windows).toEqual([{ count: 1 }]);
  });

  it('removes imports whose file stopped arriving an hour ago, with their pieces; no other import', async () => {
    const db = database.db;
    const owner = await insertUser(db, {
      id: uuidv7(),
      username: 'importer',
      email: `importer-${uuidv7()}@example.com`,
      password_hash: 'x',
      role: 'admin',
    });
    const made = async (status: 'receiving' | 'succeeded', hoursAgo: number) => {
      const id = uuidv7();
      await insertImport(db, {
        id,
        userId: owner.id,
        apiKeyId: null,
        requestId: 'r',
        address: '127.0.0.1',
        format: 'csv',
        dryRun: false,
      });
      await appendChunk(db, id, 0, Buffer.from('title,duration\r\n'));
      await sql`update imports set status = ${status}, created_at = now() - make_interval(hours => ${hoursAgo})
        where id = ${id}`.execute(db);
      return id;
    };
    const abandoned = await made('receiving', 2);
    const arriving = await made('receiving', 0);
    const finished = await made('succeeded', 2);
    const removed = await removeExpired(db, { limit: 1000, throttleWindowSeconds: 900 });
    expect(removed.abandonedImports).toBe(1);
    const left = await db
      .selectFrom('imports')
      .select('id')
      .where('user_id', '=', owner.id)
      .orderBy('id')
      .execute();
    expect(left.map((r) => r.id)).toEqual([arriving, finished].sort());
    const pieces = await db
      .selectFrom('import_chunks')
      .select('import_id')
      .where('import_id', '=', abandoned)
      .execute();
    expect(pieces).toEqual([]);
  });

  it('removes webhook deliveries done with and older than the events they carried; keeps the rest', async () => {
    const db = database.db;
    const owner = await insertUser(db, {
      id: uuidv7(),
      username: 'hooked',
      email: `hooked-${uuidv7()}@example.com`,
      password_hash: 'x',
      role: 'admin',
    });
    const hook = await insertWebhook(db, {
      id: uuidv7(),
      userId: owner.id,
      url: 'https://hooks.example.com/x',
      events: ['song.*'],
      description: null,
      secret: 'whsec_x',
    });
    const delivery = async (status: 'pending' | 'succeeded' | 'failed', daysAgo: number) => {
      const [id] = await insertDeliveries(db, [
        { id: uuidv7(), webhookId: hook.id, eventId: uuidv7(), eventType: 'song.created', payload: '{}' },
      ]);
      await sql`update webhook_deliveries set status = ${status}, created_at = now() - make_interval(days => ${daysAgo})
        where id = ${id}`.execute(db);
      return id!;
    };
    await delivery('succeeded', 31);
    await delivery('failed', 31);
    const kept = [await delivery('pending', 31), await delivery('failed', 1)];
    const removed = await removeExpired(db, {
      limit: 1000,
      throttleWindowSeconds: 900,
      eventRetentionDays: 30,
    });
    expect(removed.webhookDeliveries).toBe(2);
    const left = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', hook.id)
      .execute();
    expect(left.map((r) => r.id).sort()).toEqual(kept.sort());
  });

  it('removes read positions written over an hour ago; keeps younger ones', async () => {
    const db = database.db;
    const [old, young] = [uuidv7(), uuidv7()];
    await sql`insert into read_positions (user_id, lsn, written_at)
      values (${old}, '0/1', now() - interval '61 minutes'), (${young}, '0/2', now() - interval '59 minutes')`.execute(
      db,
    );
    const removed = await removeExpired(db, { limit: 1000, throttleWindowSeconds: 900 });
    expect(removed.readPositions).toBe(1);
    const left = await db
      .selectFrom('read_positions')
      .select('user_id')
      .where('user_id', 'in', [old, young])
      .execute();
    expect(left.map((r) => r.user_id)).toEqual([young]);
  });
});
