import { ACTOR_PASSWORD, createActor, type SignedActor } from '@music/api-router/testing';
import { createDatabase } from '@music/db';
import { until } from '@music/fleet/components';
import { beforeAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server';
import { type Client, createClient, type Response, testEnv } from '../support/harness';
import {
  describeOnPostgres,
  expectUnavailable,
  lockWaiters,
  timed,
  useThrowawayPostgres,
  waitForLockWaiters,
} from './pg-faults';
import { insertSongRow, randomTag, tokens } from './support';

/**
 * The database misbehaving under a real API: the database down (503 + Retry-After, fast, then
 * recovery by itself), a statement that would hang (statement_timeout → 503), an exhausted
 * pool (connection timeout → 503), and a write cut off half-way (nothing partial remains).
 */

describeOnPostgres('database faults', () => {
  const pg = useThrowawayPostgres();
  let urlA: string;
  let apiA: RunningServer;
  let clientA: Client;
  let user: SignedActor;

  beforeAll(async () => {
    urlA = await pg.pgi.createDatabase('api_a');
    apiA = await startServer(testEnv({ DATABASE_URL: urlA }));
    pg.servers.push(apiA);
    clientA = createClient(`${apiA.url}/v1`);
    user = await createActor(apiA.database.db, 'user', tokens);
  }, 60_000);

  /** An API instance of its own on the same database: a pool of 2, a connection timeout of 1 s. */
  async function smallPoolApi(statementTimeoutMs: number): Promise<Client> {
    const database = await createDatabase({
      databaseUrl: urlA,
      poolMax: 2,
      statementTimeoutMs,
      connectionTimeoutMs: 1_000,
    });
    pg.databases.push(database);
    const api = await startServer(testEnv(), { database });
    pg.servers.push(api);
    return createClient(`${api.url}/v1`);
  }

  it('answers 503 + Retry-After fast while the database is down, stays up, and recovers by itself', async () => {
    const me = await clientA.request('GET', '/auth/me', { token: user.token });
    expect(me.status).toBe(200);
    expect((await clientA.request('GET', '/songs', { token: user.token })).status).toBe(200);

    await pg.pgi.stop('fast');
    try {
      // Twice: first with connections the shutdown just broke, then with none at all.
      for (const round of [1, 2]) {
        const songs = await timed(() => clientA.request('GET', '/songs', { token: user.token }));
        expectUnavailable(songs.value, `GET /songs, round ${round}`);
        expect(songs.ms).toBeLessThan(3_000);

        const login = await timed(() =>
          clientA.request('POST', '/auth/login', {
            body: { email: user.user.email, password: ACTOR_PASSWORD },
          }),
        );
        expectUnavailable(login.value, `POST /auth/login, round ${round}`);
        expect(login.ms).toBeLessThan(3_000);

        const health = await timed(() => clientA.request('GET', '/health'));
        expect(health.value.status).toBe(503);
        expect(health.value.body).toEqual({ status: 'degraded', database: 'unavailable' });
        expect(health.value.headers.get('retry-after')).toBe('5');
        expect(health.ms).toBeLessThan(3_000);
      }
      // Still serving (the lost connections were not an uncaught error): a route without the database.
      expect(apiA.server.listening).toBe(true);
      expect((await clientA.request('GET', '/openapi.json')).status).toBe(200);
    } finally {
      await pg.pgi.start();
    }

    // Back by itself, with the token issued before the outage.
    const started = Date.now();
    await until(
      async () =>
        (await clientA.request('GET', '/songs', { token: user.token })).status === 200 ? true : undefined,
      10_000,
      'GET /songs to answer 200 again',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const after = await clientA.request('GET', '/auth/me', { token: user.token });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(me.body);
    expect((await clientA.request('GET', '/health')).body).toEqual({ status: 'ok', database: 'ok' });
    const login = await clientA.request('POST', '/auth/login', {
      body: { email: user.user.email, password: ACTOR_PASSWORD },
    });
    expect(login.status).toBe(200);
  }, 45_000);

  it('a statement blocked past statement_timeout answers 503 instead of hanging, and is cancelled', async () => {
    // statement_timeout is a createDatabase option (15 s by default; not an env variable).
    const client = await smallPoolApi(1_000);
    expect((await client.request('GET', '/songs', { token: user.token })).status).toBe(200);

    const locker = await pg.outside(urlA);
    const observer = await pg.outside(urlA);
    await locker.query('begin');
    await locker.query('lock table songs in access exclusive mode');
    try {
      const blocked = await timed(() => client.request('GET', '/songs', { token: user.token }));
      expectUnavailable(blocked.value, 'GET /songs behind a table lock');
      expect(blocked.ms).toBeGreaterThanOrEqual(900);
      expect(blocked.ms).toBeLessThan(4_000);
      // Cancelled by the server, not merely abandoned by the client: nothing of ours still waits.
      expect(await lockWaiters(observer, 'api_a')).toEqual([]);
    } finally {
      await locker.query('rollback');
      await pg.endOutside(locker);
      await pg.endOutside(observer);
    }
    expect((await client.request('GET', '/songs', { token: user.token })).status).toBe(200);
  }, 30_000);

  it('an exhausted pool answers 503 after the connection timeout; the holders finish once unblocked', async () => {
    // A statement timeout long enough not to interfere.
    const client = await smallPoolApi(10_000);
    const tag = randomTag();

    const locker = await pg.outside(urlA);
    const observer = await pg.outside(urlA);
    await locker.query('begin');
    await locker.query('lock table playlists in share mode'); // reads pass, inserts wait
    let released = false;
    try {
      const settled: Array<{ index: number; res: Response; ms: number }> = [];
      const started = Date.now();
      const writes = Array.from({ length: 6 }, (_, index) =>
        client
          .request('POST', '/playlists', { token: user.token, body: { name: `pool-${tag}-${index}` } })
          .then((res) => {
            settled.push({ index, res, ms: Date.now() - started });
            return res;
          }),
      );
      // Two transactions hold the pool's two connections, waiting on the lock ...
      const waiting = await waitForLockWaiters(observer, 'api_a', 2);
      expect(waiting).toHaveLength(2);
      // ... and the four queued behind them give up after the connection timeout.
      await until(async () => (settled.length >= 4 ? true : undefined), 8_000, 'four answers');
      expect(settled).toHaveLength(4);
      for (const { res, ms, index } of settled) {
        expectUnavailable(res, `queued write ${index}`);
        expect(ms).toBeLessThan(3_500);
      }
      expect(await lockWaiters(observer, 'api_a')).toHaveLength(2);

      await locker.query('commit');
      released = true;
      const answers = await Promise.all(writes);
      const created = answers.filter((res) => res.status === 201);
      expect(created).toHaveLength(2);
      expect(answers.filter((res) => res.status === 503)).toHaveLength(4);
      const { rows } = await locker.query<{ name: string }>(
        'select name from playlists where name like $1 order by name',
        [`pool-${tag}-%`],
      );
      expect(rows.map((r) => r.name).sort()).toEqual(created.map((res) => res.body.name).sort());
    } finally {
      if (!released) await locker.query('rollback').catch(() => {});
      await pg.endOutside(locker);
      await pg.endOutside(observer);
    }
    // No connection leaked: the pool serves transactions again.
    const after = await client.request('POST', '/playlists', {
      token: user.token,
      body: { name: `pool-${tag}-after` },
    });
    expect(after.status).toBe(201);
  }, 30_000);

  it('a playlist write cut off half-way leaves no playlist and no playlist songs', async () => {
    const db = apiA.database.db;
    const first = await insertSongRow(db);
    const second = await insertSongRow(db);
    const name = `half-${randomTag()}`;

    const locker = await pg.outside(urlA);
    const observer = await pg.outside(urlA);
    await locker.query('begin');
    // The playlist_songs insert's foreign-key check (FOR KEY SHARE on the song) waits on this.
    await locker.query('select id from songs where id = $1 for update', [second]);
    let res: Response;
    try {
      const pending = clientA.request('POST', '/playlists', {
        token: user.token,
        body: { name, songIds: [first, second] },
      });
      const [waiter] = await waitForLockWaiters(observer, 'api_a', 1, '%playlist_songs%');
      // Half-way: the transaction has written (the playlist row) and now waits.
      expect(waiter!.backend_xid).not.toBeNull();
      const { rows: held } = await observer.query<{ mode: string }>(
        `select mode from pg_locks where pid = $1 and relation = 'playlists'::regclass and granted`,
        [waiter!.pid],
      );
      expect(held.map((r) => r.mode)).toContain('RowExclusiveLock');

      const { rows: killed } = await observer.query<{ ok: boolean }>(
        'select pg_terminate_backend($1) as ok',
        [waiter!.pid],
      );
      expect(killed[0]!.ok).toBe(true);
      res = await pending;
    } finally {
      await locker.query('rollback');
    }
    expectUnavailable(res, 'POST /playlists cut off');

    const playlists = await observer.query('select id from playlists where name = $1', [name]);
    expect(playlists.rows).toEqual([]);
    const links = await observer.query(
      'select playlist_id from playlist_songs where song_id = any($1::uuid[])',
      [[first, second]],
    );
    expect(links.rows).toEqual([]);
    await pg.endOutside(locker);
    await pg.endOutside(observer);

    // The broken connection was discarded: the same write now goes through, whole.
    const again = await clientA.request('POST', '/playlists', {
      token: user.token,
      body: { name, songIds: [first, second] },
    });
    expect(again.status).toBe(201);
    expect(again.body.songIds).toEqual([first, second]);
  }, 30_000);
});
