import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep, until } from '@music/fleet/components';
import { beforeAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server';
import { createClient, TEST_SECRET, testEnv, tryConnect, uniqueEmail } from '../support/harness';
import { describeOnPostgres, useThrowawayPostgres, waitForLockWaiters, within } from './pg-faults';

/**
 * The API's life on a PostgreSQL server: SIGTERM on the built server (in-flight requests
 * finish, new connections are refused, exit 0), and two instances migrating one empty database.
 */

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(API_DIR, 'dist/server.mjs');

describeOnPostgres('starting and stopping', () => {
  const pg = useThrowawayPostgres();
  let urlA: string;

  beforeAll(async () => {
    // The SIGTERM test runs the built server (CI builds before testing; a checkout may not have).
    if (!existsSync(BUNDLE)) {
      execFileSync('pnpm', ['--filter', '@music/api', 'build'], {
        cwd: API_DIR,
        stdio: 'pipe',
        timeout: 45_000,
      });
    }
    // A database migrated by one API on its own: the reference for the migration test.
    urlA = await pg.pgi.createDatabase('api_a');
    pg.servers.push(await startServer(testEnv({ DATABASE_URL: urlA })));
  }, 60_000);

  it('SIGTERM on the built server: in-flight requests finish 2xx, new connections are refused, exit 0', async () => {
    const databaseUrl = await pg.pgi.createDatabase('api_e');
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
    pg.children.push(child);
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
      until(
        async () => {
          if (child.exitCode !== null) throw new Error(`the API exited early (${child.exitCode}): ${stderr}`);
          return logs.find((line) => line.msg === msg);
        },
        20_000,
        `the "${msg}" log line`,
      );

    const locker = await pg.outside(databaseUrl);
    const observer = await pg.outside(databaseUrl);
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
      await pg.endOutside(locker);
      await pg.endOutside(observer);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 45_000);

  it('two instances starting together on an empty database migrate it exactly once', async () => {
    const reference = await pg.outside(urlA);
    const { rows: expected } = await reference.query<{ name: string }>(
      'select name from kysely_migration order by name',
    );
    await pg.endOutside(reference);
    expect(expected.length).toBeGreaterThanOrEqual(3);

    for (const round of [1, 2]) {
      const url = await pg.pgi.createDatabase(`api_f${round}`);
      const started = await Promise.allSettled([
        startServer(testEnv({ DATABASE_URL: url })),
        startServer(testEnv({ DATABASE_URL: url })),
      ]);
      for (const result of started) if (result.status === 'fulfilled') pg.servers.push(result.value);
      expect(started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);

      for (const result of started) {
        const api = (result as PromiseFulfilledResult<RunningServer>).value;
        const health = await createClient(`${api.url}/v1`).request('GET', '/health');
        expect(health.status).toBe(200);
      }
      const observer = await pg.outside(url);
      const { rows } = await observer.query<{ name: string }>(
        'select name from kysely_migration order by name',
      );
      expect(rows).toEqual(expected);
      await pg.endOutside(observer);
      for (const result of started)
        await (result as PromiseFulfilledResult<RunningServer>).value.close({ graceMs: 500 });
    }
  }, 45_000);
});
