import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HAProxy, startHaproxy } from './haproxy';
import { API_BUNDLE, apiInstance, consoleInstance, type Instance, WEB_DIR } from './instances';
import { type PgBouncer, startPgBouncer } from './pgbouncer';
import { Cleanup, sleep, startChild, until } from './processes';

/**
 * The service as production runs it, from the outside, with real components: PostgreSQL behind a
 * stock transaction-mode PgBouncer, three API instances started together on an empty database,
 * HAProxy in front of them without retries, and two consoles behind HAProxy too (no sticky
 * sessions). Needs `pnpm build` first, PostgreSQL at TEST_DATABASE_DIRECT_URL (default
 * 127.0.0.1:5432), Debian's pgbouncer, haproxy and chromium. Scenarios run in order on one fleet.
 */

const SERVER = new URL(process.env.TEST_DATABASE_DIRECT_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const DATABASE = `music_fleet_${Date.now()}_${randomBytes(3).toString('hex')}`;
const DIRECT_URL = (() => {
  const url = new URL(SERVER);
  url.pathname = `/${DATABASE}`;
  return url.toString();
})();
const OLD_KEY = `fleet-key-one-${randomBytes(24).toString('hex')}`;
const NEW_KEY = `fleet-key-two-${randomBytes(24).toString('hex')}`;
const ADMIN = { email: 'admin@fleet.test', password: 'fleet-admin-password' };
/** Longer than HAProxy needs to take a stopping instance out (one failed check, 300 ms apart). */
const SHUTDOWN_DELAY_SECONDS = 2;
const CHECK_INTERVAL_MS = 300;
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (candidate): candidate is string => Boolean(candidate && existsSync(candidate)),
);

const cleanup = new Cleanup();
let direct: pg.Client;
let pgbouncer: PgBouncer;
let balancer: HAProxy;
let apis: Instance[];
let consoles: Instance[];

function apiEnv(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: pgbouncer.url(DATABASE),
    DATABASE_POOLER: 'transaction',
    DATABASE_DIRECT_URL: DIRECT_URL,
    JWT_SECRET: OLD_KEY,
    TRUST_PROXY: 'loopback',
    DB_POOL_MAX: '6',
    SHUTDOWN_DELAY_SECONDS: String(SHUTDOWN_DELAY_SECONDS),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
  };
}

beforeAll(async () => {
  for (const artefact of [API_BUNDLE, path.join(WEB_DIR, '.next/BUILD_ID')]) {
    if (!existsSync(artefact)) throw new Error(`${artefact} is missing: run \`pnpm build\` first`);
  }
  direct = new pg.Client({ connectionString: SERVER.toString() });
  await direct.connect();
  await direct.query(`create database "${DATABASE}"`);
  cleanup.add(async () => {
    await direct.query(`drop database if exists "${DATABASE}" with (force)`);
    await direct.end();
  });
  pgbouncer = await startPgBouncer({ serverHost: SERVER.hostname, serverPort: Number(SERVER.port || 5432) });
  cleanup.add(() => pgbouncer.destroy());

  // Three instances started at the same moment on the empty database.
  apis = await Promise.all(['api1', 'api2', 'api3'].map((name) => apiInstance(name, apiEnv())));
  cleanup.add(() => Promise.all(apis.map((api) => api.stop('SIGINT'))));
  await Promise.all(apis.map((api) => api.start()));

  balancer = await startHaproxy([
    {
      name: 'api',
      servers: apis.map((a) => a.port),
      check: 'GET /v1/health',
      checkIntervalMs: CHECK_INTERVAL_MS,
    },
  ]);
  cleanup.add(() => balancer.stop());
  await until(
    async () => ((await fetch(`${balancer.url('api')}/v1/health`)).ok ? true : undefined),
    10_000,
    'HAProxy',
  );
}, 180_000);

afterAll(() => cleanup.run(), 60_000);

/** A request through the balancer (or to `base`), with JSON in and out. */
async function call(
  method: string,
  path_: string,
  options: { token?: string; body?: unknown; base?: string; forwardedFor?: string } = {},
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely; the assertions check their shape.
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
  const res = await fetch(`${options.base ?? balancer.url('api')}/v1${path_}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

async function signUp(tag: string): Promise<{ id: string; email: string; password: string; token: string }> {
  const email = `${tag}-${randomBytes(4).toString('hex')}@fleet.test`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const created = await call('POST', '/users', { body: { username: tag, email, password } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const login = await call('POST', '/auth/login', { body: { email, password } });
  expect(login.status).toBe(200);
  return { id: created.body.id, email, password, token: login.body.accessToken };
}

/**
 * Steady load through the balancer at `rate` requests a second until stopped: each request is
 * made by `next(i)`, which says what it sent and which statuses count as success.
 */
function steadyLoad(
  rate: number,
  next: (i: number) => { method: string; path: string; token?: string; body?: unknown; ok: number[] },
) {
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely; the assertions check their shape.
  const results: Array<{ what: string; status: number; body: any }> = [];
  const inFlight = new Set<Promise<void>>();
  let i = 0;
  const timer = setInterval(() => {
    const request = next(i++);
    const sent = call(request.method, request.path, { token: request.token, body: request.body })
      .then(
        (res) => {
          results.push({ what: `${request.method} ${request.path}`, status: res.status, body: res.body });
          if (!request.ok.includes(res.status)) {
            process.stderr.write(
              `unexpected ${res.status} for ${request.method} ${request.path}: ${JSON.stringify(res.body)}\n`,
            );
          }
        },
        (error: unknown) => {
          results.push({ what: `${request.method} ${request.path}`, status: 0, body: String(error) });
          process.stderr.write(`failed ${request.method} ${request.path}: ${String(error)}\n`);
        },
      )
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  }, 1000 / rate);
  return {
    results,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return results;
    },
  };
}

/** Runs `work` on a connection of its own straight to the fleet's database (a DBA's view). */
async function onDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: DIRECT_URL });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** SIGTERM, exit 0, start again and ready: one step of a rolling restart. */
async function restart(api: Instance, overrides?: Record<string, string>): Promise<void> {
  const exit = await api.stop('SIGTERM');
  expect(exit, `${api.name} after SIGTERM: ${api.child().output().slice(-1000)}`).toEqual({
    code: 0,
    signal: null,
  });
  await api.start(overrides);
  // Back in the balancer's rotation before the next one goes.
  await sleep(CHECK_INTERVAL_MS * 3);
}

describe('a fleet behind PgBouncer and HAProxy', () => {
  it('starts three instances together on an empty database, migrating it once', async () => {
    const { rows } = await onDatabase((db) =>
      db.query('select name, count(*)::int as n from kysely_migration group by name'),
    );
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
    for (const api of apis) {
      expect(api.child().process.exitCode).toBeNull();
      expect((await fetch(`${api.url}/v1/health`)).status).toBe(200);
    }
    // Exactly one bootstrap admin, though all three ensured it at once.
    const admin = await call('POST', '/auth/login', { body: ADMIN });
    expect(admin.status).toBe(200);
    expect(admin.body.user.role).toBe('admin');
  });

  it('refuses to start through the pooler without DATABASE_POOLER, saying why in one line', async () => {
    const env: Record<string, string> = {
      ...apiEnv(),
      DATABASE_POOLER: 'none',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    // No bootstrap admin either: nothing but the start-up's own check touches DATABASE_URL.
    delete env.ADMIN_EMAIL;
    delete env.ADMIN_PASSWORD;
    const child = startChild(process.execPath, [API_BUNDLE], {
      cwd: path.dirname(API_BUNDLE),
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    const exit = await Promise.race([child.exited, sleep(30_000).then(() => ({ code: -1, signal: null }))]);
    await child.stop('SIGKILL');
    expect(exit.code).toBe(1);
    const lines = child
      .output()
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('music-api:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^music-api: start-up failed: .*unsupported startup parameter: statement_timeout/,
    );
  });

  it('checks no more than the limit of 30 simultaneous wrong passwords for one email, across instances', async () => {
    const victim = await signUp('victim');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        call('POST', '/auth/login', {
          body: { email: victim.email, password: 'a-wrong-password' },
          forwardedFor: '198.51.100.30',
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    for (const a of answers.filter((a) => a.status === 429)) {
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const right = await call('POST', '/auth/login', {
      body: { email: victim.email, password: victim.password },
      forwardedFor: '198.51.100.31',
    });
    expect(right.status).toBe(429);
  });

  it('serves every read while columns and a table are added under load', async () => {
    const admin = (await call('POST', '/auth/login', { body: ADMIN })).body.accessToken as string;
    const user = await signUp('reader');
    const artist = await call('POST', '/artists', { token: admin, body: { name: 'Fleet Artist' } });
    expect(artist.status).toBe(201);
    const load = steadyLoad(80, (i) => {
      const reads = [
        { method: 'GET', path: `/artists/${artist.body.id}`, token: user.token, ok: [200] },
        { method: 'GET', path: '/artists?limit=20', token: user.token, ok: [200] },
        { method: 'GET', path: `/users/${user.id}`, token: user.token, ok: [200] },
        { method: 'GET', path: '/users?limit=20', token: admin, ok: [200] },
        { method: 'GET', path: '/auth/me', token: user.token, ok: [200] },
      ];
      return reads[i % reads.length]!;
    });
    await sleep(1_500);
    await onDatabase(async (db) => {
      await db.query('alter table artists add column fleet_note text');
      await sleep(700);
      await db.query('alter table users add column fleet_nickname text');
      await sleep(700);
      await db.query('create table fleet_extra (id int primary key, note text)');
      await db.query('alter table songs add column fleet_mood text default null');
    });
    await sleep(3_000);
    const results = await load.stop();
    expect(results.length).toBeGreaterThan(300);
    const failed = results.filter((r) => r.status !== 200);
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
  });

  it('loses no request and no write through a rolling restart of every instance', async () => {
    const user = await signUp('roller');
    const load = steadyLoad(80, (i) =>
      i % 4 === 0
        ? { method: 'POST', path: '/playlists', token: user.token, body: { name: `Roll ${i}` }, ok: [201] }
        : i % 4 === 1
          ? { method: 'GET', path: '/playlists?limit=5', token: user.token, ok: [200] }
          : i % 4 === 2
            ? { method: 'GET', path: '/auth/me', token: user.token, ok: [200] }
            : { method: 'GET', path: '/songs?limit=5', token: user.token, ok: [200] },
    );
    await sleep(1_000);
    for (const api of apis) await restart(api);
    await sleep(1_000);
    const results = await load.stop();
    expect(results.length).toBeGreaterThan(500);
    const failed = results.filter((r) => !(r.status === 200 || r.status === 201));
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
    const acknowledged = results.filter((r) => r.status === 201).map((r) => r.body.id as string);
    const { rows } = await onDatabase((db) =>
      db.query<{ id: string }>('select id from playlists where user_id = $1', [user.id]),
    );
    expect(rows.map((r) => r.id).sort()).toEqual([...acknowledged].sort());
  });

  it('keeps every write whole when an instance is killed (SIGKILL) in the middle of them', async () => {
    const admin = (await call('POST', '/auth/login', { body: ADMIN })).body.accessToken as string;
    const songIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const song = await call('POST', '/songs', {
        token: admin,
        body: { title: `Kill ${i}`, duration: 180 },
      });
      expect(song.status).toBe(201);
      songIds.push(song.body.id);
    }
    const user = await signUp('killed');
    // Each playlist is written in one transaction: the playlist and its five songs.
    const load = steadyLoad(80, (i) => ({
      method: 'POST',
      path: '/playlists',
      token: user.token,
      body: { name: `Whole ${i}`, songIds },
      ok: [201],
    }));
    await sleep(1_500);
    const victim = apis[1]!;
    expect(await victim.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    await sleep(1_500);
    const results = await load.stop();
    const acknowledged = results.filter((r) => r.status === 201).map((r) => r.body.id as string);
    expect(acknowledged.length).toBeGreaterThan(100);
    const { rows } = await onDatabase((db) =>
      db.query<{ id: string; songs: number }>(
        `select p.id, (select count(*)::int from playlist_songs s where s.playlist_id = p.id) as songs
           from playlists p where p.user_id = $1`,
        [user.id],
      ),
    );
    // Every acknowledged write is there; whatever reached the database is whole.
    const stored = new Set(rows.map((r) => r.id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    expect(rows.filter((r) => r.songs !== 5)).toEqual([]);
    // Requests lost with the process are at most what it was serving when it died; the rest of
    // the fleet answered everything else.
    expect(results.filter((r) => r.status !== 201).length).toBeLessThan(results.length * 0.1);
    await victim.start();
    await sleep(CHECK_INTERVAL_MS * 3);
  });

  it('rotates the signing key through rolling restarts without refusing a token in between', async () => {
    const user = await signUp('rotation');
    const before = user.token;
    const everywhere = async (token: string) =>
      Promise.all(apis.map(async (api) => (await call('GET', '/auth/me', { token, base: api.url })).status));
    const tokens = [before];
    // 1: accept the next key; 2: sign with it, still accepting the old one.
    const steps: Array<Record<string, string>> = [
      { JWT_PREVIOUS_SECRETS: NEW_KEY },
      { JWT_SECRET: NEW_KEY, JWT_PREVIOUS_SECRETS: OLD_KEY },
    ];
    for (const step of steps) {
      for (const api of apis) {
        await restart(api, step);
        const fresh = await call('POST', '/auth/login', {
          body: { email: user.email, password: user.password },
        });
        expect(fresh.status).toBe(200);
        tokens.push(fresh.body.accessToken);
        for (const token of tokens) expect(await everywhere(token)).toEqual([200, 200, 200]);
      }
    }
    const kid = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;
    const signedNew = tokens.at(-1)!;
    expect(kid(signedNew)).not.toBe(kid(before));
    // 3: the old key dropped, a token lifetime later.
    for (const api of apis) await restart(api, { JWT_PREVIOUS_SECRETS: '' });
    expect(await everywhere(signedNew)).toEqual([200, 200, 200]);
    expect(await everywhere(before)).toEqual([401, 401, 401]);
  });

  it('answers liveness but not readiness while PgBouncer is down, and recovers by itself', async () => {
    const user = await signUp('outage');
    await pgbouncer.stop();
    try {
      for (const api of apis) {
        await until(
          async () => ((await fetch(`${api.url}/v1/health`)).status === 503 ? true : undefined),
          10_000,
          `${api.name} readiness 503`,
        );
        const live = await fetch(`${api.url}/v1/health/live`);
        expect(live.status).toBe(200);
        expect(await live.json()).toEqual({ status: 'ok' });
        const read = await call('GET', '/auth/me', { token: user.token, base: api.url });
        expect(read.status).toBe(503);
        expect(read.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    } finally {
      await pgbouncer.start();
    }
    for (const api of apis) {
      await until(
        async () => ((await fetch(`${api.url}/v1/health`)).status === 200 ? true : undefined),
        15_000,
        `${api.name} ready again`,
      );
      expect((await call('GET', '/auth/me', { token: user.token, base: api.url })).status).toBe(200);
    }
    // None of them was restarted: still the processes started at the beginning of this scenario.
    for (const api of apis) expect(api.child().process.exitCode).toBeNull();
  });
});

describe('two consoles behind HAProxy, two tabs of one browser', () => {
  let browser: Browser;
  let web: HAProxy;

  beforeAll(async () => {
    consoles = await Promise.all(['web1', 'web2'].map((name) => consoleInstance(name, balancer.url('api'))));
    cleanup.add(() => Promise.all(consoles.map((c) => c.stop('SIGTERM'))));
    await Promise.all(consoles.map((c) => c.start()));
    web = await startHaproxy([{ name: 'web', servers: consoles.map((c) => c.port) }]);
    cleanup.add(() => web.stop());
    browser = await chromium.launch({
      ...(CHROMIUM ? { executablePath: CHROMIUM } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    cleanup.add(() => browser.close());
  }, 120_000);

  it('never signs the user out when both tabs find the access token expired at once', async () => {
    const user = await signUp('tabs');
    const context = await browser.newContext({ baseURL: web.url('web') });
    try {
      const first = await context.newPage();
      await first.goto('/sign-in');
      await first.getByLabel('Email').fill(user.email);
      await first.getByLabel('Password').fill(user.password);
      await first.getByRole('button', { name: 'Sign in' }).click();
      await first.getByRole('button', { name: 'Sign out' }).waitFor();
      const second = await context.newPage();
      await second.goto('/playlists');
      await second.getByRole('button', { name: 'Sign out' }).waitFor();
      const refreshTokens = new Set<string>();
      for (let round = 0; round < 6; round++) {
        // What the browser does when the access cookie's lifetime ends.
        await context.clearCookies({ name: 'mc_access' });
        await Promise.all([first.reload(), second.reload()]);
        for (const page of [first, second]) {
          await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 15_000 });
          expect(page.url()).not.toContain('/sign-in');
        }
        const cookies = await context.cookies();
        const refresh = cookies.find((c) => c.name === 'mc_refresh')?.value;
        expect(refresh).toBeTruthy();
        refreshTokens.add(refresh!);
      }
      // Each round rotated the refresh token, and the session is still live on the API.
      expect(refreshTokens.size).toBe(6);
      const third = await context.newPage();
      await third.goto('/songs');
      await third.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(third.url()).not.toContain('/sign-in');
      const { rows } = await onDatabase((db) =>
        db.query<{ revoked: number }>(
          'select count(*)::int as revoked from sessions where user_id = $1 and revoked_at is not null',
          [user.id],
        ),
      );
      expect(rows[0]!.revoked).toBe(0);
    } finally {
      await context.close();
    }
  });
});
