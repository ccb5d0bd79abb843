import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACTOR_PASSWORD, createActor, type SignedActor } from '@music/api-router/testing';
import { createDatabase, type Database } from '@music/db';
import {
  connectSession,
  findPostgresTools,
  type PostgresInstance,
  type SqlSession,
  startPostgres,
} from '@music/fleet/components';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server';
import {
  type Client,
  createClient,
  type Response,
  TEST_SECRET,
  testEnv,
  tryConnect,
  uniqueEmail,
} from '../testing/harness';
import { insertSongRow, randomTag, tokens } from './support';

/**
 * The database misbehaving under a real API, on a PostgreSQL server of this file's own
 * (stopped, restarted, locked and cut off here without disturbing any other suite):
 * the database down (503 + Retry-After, fast, then recovery by itself), a statement that
 * would hang (statement_timeout → 503), an exhausted pool (connection timeout → 503), a write
 * cut off half-way (nothing partial remains), SIGTERM on the built server (in-flight requests
 * finish, new connections are refused, exit 0), and two instances migrating one empty database.
 *
 * Without PostgreSQL's tools the suite is skipped, except in CI (CI=true), where it fails.
 */

const tools = findPostgresTools();
const unavailable = 'unavailable' in tools ? tools.unavailable : undefined;
const mustRun = process.env.CI === 'true';
if (unavailable && !mustRun) console.warn(`db-faults.test.ts skipped: ${unavailable}`);

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(API_DIR, 'dist/server.mjs');

let pgi: PostgresInstance | undefined;
let urlA: string;
let apiA: RunningServer;
let clientA: Client;
let user: SignedActor;
const servers: RunningServer[] = [];
const databases: Database[] = [];
const outsiders: SqlSession[] = [];
const children: ChildProcess[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** A plain connection from outside the API (a DBA, another service): holds locks, watches. */
async function outside(url: string): Promise<SqlSession> {
  const client = await connectSession(url);
  outsiders.push(client);
  return client;
}

async function endOutside(client: SqlSession): Promise<void> {
  const index = outsiders.indexOf(client);
  if (index >= 0) outsiders.splice(index, 1);
  await client.end().catch(() => {});
}

/**
 * The API's backends in `datname` that wait for a lock (optionally: running `queryLike`).
 * `observer` must not be inside a transaction: pg_stat_activity is a snapshot per transaction.
 */
async function lockWaiters(observer: SqlSession, datname: string, queryLike = '%') {
  const { rows } = await observer.query<{ pid: number; backend_xid: string | null }>(
    `select pid, backend_xid::text from pg_stat_activity
      where application_name = 'music-api' and datname = $1 and wait_event_type = 'Lock' and query like $2`,
    [datname, queryLike],
  );
  return rows;
}

async function waitForLockWaiters(observer: SqlSession, datname: string, count: number, queryLike = '%') {
  return waitFor(
    async () => {
      const rows = await lockWaiters(observer, datname, queryLike);
      return rows.length >= count ? rows : undefined;
    },
    10_000,
    `${count} API backend(s) waiting on a lock`,
  );
}

/** The contract's 503: the error body, Retry-After, JSON. */
function expectUnavailable(res: Response, label: string) {
  expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBe(503);
  expect(res.body, label).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
  expect(res.headers.get('retry-after'), label).toBe('5');
  expect(res.headers.get('content-type'), label).toMatch(/^application\/json/);
}

const describeFaults = unavailable !== undefined && !mustRun ? describe.skip : describe;

describeFaults(`database faults on a throwaway PostgreSQL${unavailable ? ` (${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    if ('unavailable' in tools) throw new Error(`CI must run the database fault tests: ${tools.unavailable}`);
    // The SIGTERM test runs the built server (CI builds before testing; a checkout may not have).
    if (!existsSync(BUNDLE)) {
      execFileSync('pnpm', ['--filter', '@music/api', 'build'], {
        cwd: API_DIR,
        stdio: 'pipe',
        timeout: 45_000,
      });
    }
    pgi = await startPostgres(tools);
    urlA = await pgi.createDatabase('api_a');
    apiA = await startServer(testEnv({ DATABASE_URL: urlA }));
    servers.push(apiA);
    clientA = createClient(`${apiA.url}/v1`);
    user = await createActor(apiA.database.db, 'user', tokens);
  }, 60_000);

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.close({ graceMs: 500 }).catch(() => {})));
    await Promise.all(databases.map((database) => database.close().catch(() => {})));
    await Promise.all(outsiders.map((client) => client.end().catch(() => {})));
    await pgi?.destroy();
  }, 30_000);

  it('answers 503 + Retry-After fast while the database is down, stays up, and recovers by itself', async () => {
    const me = await clientA.request('GET', '/auth/me', { token: user.token });
    expect(me.status).toBe(200);
    expect((await clientA.request('GET', '/songs', { token: user.token })).status).toBe(200);

    await pgi!.stop('fast');
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
      await pgi!.start();
    }

    // Back by itself, with the token issued before the outage.
    const started = Date.now();
    await waitFor(
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
    // statement_timeout is a createDatabase option (15 s by default; not an env variable):
    // an API instance with a short one, on the same database.
    const database = await createDatabase({
      databaseUrl: urlA,
      poolMax: 2,
      statementTimeoutMs: 1_000,
      connectionTimeoutMs: 1_000,
    });
    databases.push(database);
    const api = await startServer(testEnv(), { database });
    servers.push(api);
    const client = createClient(`${api.url}/v1`);
    expect((await client.request('GET', '/songs', { token: user.token })).status).toBe(200);

    const locker = await outside(urlA);
    const observer = await outside(urlA);
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
      await endOutside(locker);
      await endOutside(observer);
    }
    expect((await client.request('GET', '/songs', { token: user.token })).status).toBe(200);
  }, 30_000);

  it('an exhausted pool answers 503 after the connection timeout; the holders finish once unblocked', async () => {
    // Pool of 2, connection timeout 1 s, statement timeout long enough not to interfere.
    const database = await createDatabase({
      databaseUrl: urlA,
      poolMax: 2,
      statementTimeoutMs: 10_000,
      connectionTimeoutMs: 1_000,
    });
    databases.push(database);
    const api = await startServer(testEnv(), { database });
    servers.push(api);
    const client = createClient(`${api.url}/v1`);
    const tag = randomTag();

    const locker = await outside(urlA);
    const observer = await outside(urlA);
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
      await waitFor(async () => (settled.length >= 4 ? true : undefined), 8_000, 'four answers');
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
      await endOutside(locker);
      await endOutside(observer);
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

    const locker = await outside(urlA);
    const observer = await outside(urlA);
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
    await endOutside(locker);
    await endOutside(observer);

    // The broken connection was discarded: the same write now goes through, whole.
    const again = await clientA.request('POST', '/playlists', {
      token: user.token,
      body: { name, songIds: [first, second] },
    });
    expect(again.status).toBe(201);
    expect(again.body.songIds).toEqual([first, second]);
  }, 30_000);

  it('SIGTERM on the built server: in-flight requests finish 2xx, new connections are refused, exit 0', async () => {
    const databaseUrl = await pgi!.createDatabase('api_e');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'music-api-data-'));
    const child = spawn(process.execPath, [BUNDLE], {
      cwd: API_DIR,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        JWT_SECRET: TEST_SECRET,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const logs: Array<Record<string, unknown>> = [];
    let stderr = '';
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          logs.push({ msg: line });
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const logged = (msg: string) =>
      waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`the API exited early (${child.exitCode}): ${stderr}`);
          return logs.find((line) => line.msg === msg);
        },
        20_000,
        `the "${msg}" log line`,
      );

    const locker = await outside(databaseUrl);
    const observer = await outside(databaseUrl);
    try {
      const listening = await logged('api listening');
      const url = String(listening.url);
      const client = createClient(`${url}/v1`);
      const { port } = new URL(url);

      const email = uniqueEmail('sigterm');
      const password = `pw-${randomBytes(8).toString('hex')}`;
      expect(
        (await client.request('POST', '/users', { body: { username: 'Sigterm', email, password } })).status,
      ).toBe(201);
      const login = await client.request('POST', '/auth/login', { body: { email, password } });
      expect(login.status).toBe(200);
      const token: string = login.body.accessToken;
      const playlist = await client.request('POST', '/playlists', { token, body: { name: 'Before' } });
      expect(playlist.status).toBe(201);

      // Three slow requests: each waits for the playlist row, locked from outside.
      await locker.query('begin');
      await locker.query('select id from playlists where id = $1 for update', [playlist.body.id]);
      const inFlight = [1, 2, 3].map((n) =>
        client.request('PUT', `/playlists/${playlist.body.id}`, { token, body: { name: `Renamed ${n}` } }),
      );
      await waitForLockWaiters(observer, 'api_e', 3);

      const signalled = Date.now();
      child.kill('SIGTERM');
      await logged('shutting down');
      // The listener is closed: a new connection is refused.
      expect(await tryConnect(Number(port))).toBe('ECONNREFUSED');
      // Still draining, not gone: the in-flight requests hold it.
      await sleep(Math.max(0, 500 - (Date.now() - signalled)));
      expect(child.exitCode).toBeNull();

      await locker.query('commit');
      const answers = await Promise.all(inFlight);
      for (const res of answers) expect(res.status, res.text).toBe(200);
      const names = answers.map((res) => res.body.name).sort();
      expect(names).toEqual(['Renamed 1', 'Renamed 2', 'Renamed 3']);

      const exit = await within(exited, 12_000, 'the API to exit after SIGTERM');
      expect(exit).toMatchObject({ code: 0, signal: null });
      // (It exits once the client closes its idle keep-alive sockets or the server's
      // keepAliveTimeout passes: ~3 s after the last answer with fetch here.)
      const { rows } = await locker.query<{ name: string }>('select name from playlists where id = $1', [
        playlist.body.id,
      ]);
      expect(rows[0]!.name).toMatch(/^Renamed [123]$/);
    } finally {
      await locker.query('rollback').catch(() => {});
      await endOutside(locker);
      await endOutside(observer);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 45_000);

  it('two instances starting together on an empty database migrate it exactly once', async () => {
    const reference = await outside(urlA);
    const { rows: expected } = await reference.query<{ name: string }>(
      'select name from kysely_migration order by name',
    );
    await endOutside(reference);
    expect(expected.length).toBeGreaterThanOrEqual(3);

    for (const round of [1, 2]) {
      const url = await pgi!.createDatabase(`api_f${round}`);
      const started = await Promise.allSettled([
        startServer(testEnv({ DATABASE_URL: url })),
        startServer(testEnv({ DATABASE_URL: url })),
      ]);
      for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
      expect(started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);

      for (const result of started) {
        const api = (result as PromiseFulfilledResult<RunningServer>).value;
        const health = await createClient(`${api.url}/v1`).request('GET', '/health');
        expect(health.status).toBe(200);
      }
      const observer = await outside(url);
      const { rows } = await observer.query<{ name: string }>(
        'select name from kysely_migration order by name',
      );
      expect(rows).toEqual(expected);
      await endOutside(observer);
      for (const result of started)
        await (result as PromiseFulfilledResult<RunningServer>).value.close({ graceMs: 500 });
    }
  }, 45_000);
});
