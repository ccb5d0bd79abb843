// What a bench run starts and must stop: a scratch database, the API, the baseline, and for the
// pooler cases PgBouncer with a second API behind it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type PgBouncer, startPgBouncer } from '@music/fleet/components';
import pg from 'pg';
import { apiNodeFlags } from '../../scripts/api-start-args.mjs';
import type { Probe } from './proc';
import {
  API_ENV,
  API_PORT,
  BASE_PORT,
  BEFORE_PORT,
  COMPARE_API,
  here,
  POOLED_PORT,
  root,
  SERVER_URL,
} from './settings';

export const API = `http://127.0.0.1:${API_PORT}`;
export const BASE = `http://127.0.0.1:${BASE_PORT}`;
export const POOLED = `http://127.0.0.1:${POOLED_PORT}`;
export const BEFORE = `http://127.0.0.1:${BEFORE_PORT}`;

export interface Stack {
  /** A connection to the server's maintenance database: creates, watches and drops the scratch one. */
  admin: pg.Client;
  dbName: string;
  databaseUrl: string;
  serverVersion: string;
  children: ChildProcess[];
  pgbouncer?: PgBouncer;
  dataDir: string;
  /** Left on the server by `closeStack` (see `createScratchDatabase`). */
  kept?: boolean;
}

/**
 * A scratch database on the server. `kept`: a fixed name, created only if missing and never
 * dropped (`closeStack` leaves it), so a long seed can be reused by the next run.
 */
export async function createScratchDatabase(kept?: string): Promise<Stack & { existed: boolean }> {
  const dbName = kept ?? `music_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const serverVersion = (await admin.query('show server_version')).rows[0].server_version as string;
  const existed =
    kept !== undefined &&
    (await admin.query('select 1 from pg_database where datname = $1', [kept])).rowCount === 1;
  if (!existed) await admin.query(`create database "${dbName}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'music-bench-'));
  return {
    admin,
    dbName,
    databaseUrl: url.toString(),
    serverVersion,
    children: [],
    dataDir,
    existed,
    kept: kept !== undefined,
  };
}

export async function closeStack(stack: Stack): Promise<void> {
  for (const child of stack.children) child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 1000));
  await stack.pgbouncer?.destroy();
  if (!stack.kept) {
    await stack.admin.query(`drop database if exists "${stack.dbName}" with (force)`).catch(() => {});
  }
  await stack.admin.end();
  rmSync(stack.dataDir, { recursive: true, force: true });
}

export function start(name: string, args: string[], env: Record<string, string>, cwd: string) {
  // `node` itself is the server process (no wrapper), so its pid is the one /proc is read for.
  // Every API process (`api`, `api-pooled`, `api-before`) runs with the start script's flags (its
  // heap budget): a build run without them used 9-16% less CPU a request than with them, which
  // made the build compared against look faster than it was.
  const extra = name.startsWith('api')
    ? [...apiNodeFlags(), ...(process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? [])]
    : [];
  const child = spawn(process.execPath, [...extra, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (d) => process.stderr.write(`[${name}] ${d}`));
  return child;
}

export async function waitFor(url: string, seconds = 30) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

export interface Servers {
  api: Probe;
  baseline: Probe;
  /** The API through PgBouncer; PgBouncer's own process counts as database-side CPU. */
  pooled?: Probe;
  /**
   * Another build of the API (BENCH_COMPARE_API) on the same database. Its connections name
   * themselves like the API's, so each side's database CPU counts both APIs' backends: the idle
   * side's add nothing.
   */
  before?: Probe;
}

/** Starts the servers on the seeded database and waits until they answer. */
export async function startServers(stack: Stack, apiDist: string, withPooler: boolean): Promise<Servers> {
  const apiEnv = {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DATA_DIR: stack.dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    LOGIN_MAX_FAILURES_PER_EMAIL: '1000000',
    LOGIN_MAX_FAILURES_PER_ADDRESS: '1000000',
    // Budgets on, as in production, at a level the load never reaches: the figures include
    // what counting every request costs (an older build ignores these).
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
  };
  const api = start(
    'api',
    [apiDist],
    { ...apiEnv, ...API_ENV, DATABASE_URL: stack.databaseUrl, PORT: String(API_PORT) },
    root,
  );
  const baseline = start(
    'baseline',
    ['--import', 'tsx', path.join(here, 'baseline.ts')],
    { DATABASE_URL: stack.databaseUrl, PORT: String(BASE_PORT) },
    path.join(root, 'bench'),
  );
  stack.children.push(api, baseline);
  let pooled: ChildProcess | undefined;
  if (withPooler) {
    const url = new URL(stack.databaseUrl);
    const pgbouncer = await startPgBouncer({
      serverHost: url.hostname,
      serverPort: Number(url.port || 5432),
      poolSize: Number(process.env.BENCH_PGBOUNCER_POOL_SIZE ?? 20),
    });
    stack.pgbouncer = pgbouncer;
    pooled = start(
      'api-pooled',
      [apiDist],
      {
        ...apiEnv,
        DATABASE_URL: pgbouncer.url(stack.dbName),
        DATABASE_POOLER: 'transaction',
        DATABASE_DIRECT_URL: stack.databaseUrl,
        PORT: String(POOLED_PORT),
      },
      root,
    );
    stack.children.push(pooled);
  }
  let before: ChildProcess | undefined;
  if (COMPARE_API) {
    before = start(
      'api-before',
      [COMPARE_API],
      { ...apiEnv, DATABASE_URL: stack.databaseUrl, PORT: String(BEFORE_PORT) },
      root,
    );
    stack.children.push(before);
  }
  await Promise.all([
    waitFor(`${API}/v1/health`),
    ...(before ? [waitFor(`${BEFORE}/v1/health`)] : []),
    waitFor(`${BASE}/songs/00000000-0000-0000-0000-000000000000`),
    ...(pooled ? [waitFor(`${POOLED}/v1/health`)] : []),
  ]);
  const apiProbe = probe(stack, api, 'music-api');
  return {
    api: apiProbe,
    baseline: probe(stack, baseline, 'bench-baseline'),
    ...(before && { before: probe(stack, before, 'music-api') }),
    ...(pooled && {
      pooled: {
        pid: pooled.pid!,
        dbPids: async () => [
          ...(await apiProbe.dbPids()),
          ...(stack.pgbouncer?.pid ? [stack.pgbouncer.pid] : []),
        ],
      },
    }),
  };
}

function probe(stack: Stack, child: ChildProcess, applicationName: string): Probe {
  return {
    pid: child.pid!,
    dbPids: async () =>
      (
        await stack.admin.query(
          'select pid from pg_stat_activity where datname = $1 and application_name = $2',
          [stack.dbName, applicationName],
        )
      ).rows.map((r: { pid: number }) => r.pid),
  };
}

/**
 * A round ends when its time is up, but the database may still be working through the queries
 * the side just sent (the baseline's slow searches take seconds): wait until it is idle, so that
 * no round pays for the previous one's tail.
 */
export async function settle(stack: Stack): Promise<void> {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const { rows } = await stack.admin.query(
      `select count(*)::int as n from pg_stat_activity
       where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
      [stack.dbName],
    );
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
