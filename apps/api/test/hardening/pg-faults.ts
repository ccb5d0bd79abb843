import type { ChildProcess } from 'node:child_process';
import type { Database } from '@music/db';
import {
  connectSession,
  findPostgresTools,
  type PostgresInstance,
  type SqlSession,
  startPostgres,
  until,
} from '@music/fleet/components';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { RunningServer } from '../../src/server';
import type { Response } from '../support/harness';

/**
 * The database-fault suites' PostgreSQL server, one per file (stopped, restarted, locked and cut
 * off there without disturbing any other suite), what they start on it, and their waits.
 * Without PostgreSQL's tools the suites are skipped, except in CI (CI=true), where they fail.
 */

const tools = findPostgresTools();
const unavailable = 'unavailable' in tools ? tools.unavailable : undefined;
const mustRun = process.env.CI === 'true';

/** `describe` on a throwaway PostgreSQL, skipped (with a warning) where there is none outside CI. */
export function describeOnPostgres(title: string, body: () => void): void {
  const skip = unavailable !== undefined && !mustRun;
  if (skip) console.warn(`${title} skipped: ${unavailable}`);
  (skip ? describe.skip : describe)(
    `${title} on a throwaway PostgreSQL${unavailable ? ` (${unavailable})` : ''}`,
    body,
  );
}

export interface ThrowawayPostgres {
  pgi: PostgresInstance;
  /** Closed (or killed) after the file's tests. */
  servers: RunningServer[];
  databases: Database[];
  children: ChildProcess[];
  /** A plain connection from outside the API (a DBA, another service): holds locks, watches. */
  outside(url: string): Promise<SqlSession>;
  endOutside(client: SqlSession): Promise<void>;
}

/** Starts the server before the describe's tests and removes it, and all it holds, after. */
export function useThrowawayPostgres(): ThrowawayPostgres {
  const outsiders: SqlSession[] = [];
  const pg: ThrowawayPostgres = {
    pgi: undefined as unknown as PostgresInstance,
    servers: [],
    databases: [],
    children: [],
    async outside(url) {
      const client = await connectSession(url);
      outsiders.push(client);
      return client;
    },
    async endOutside(client) {
      const index = outsiders.indexOf(client);
      if (index >= 0) outsiders.splice(index, 1);
      await client.end().catch(() => {});
    },
  };
  beforeAll(async () => {
    if ('unavailable' in tools) throw new Error(`CI must run the database fault tests: ${tools.unavailable}`);
    pg.pgi = await startPostgres(tools);
  }, 60_000);
  afterAll(async () => {
    for (const child of pg.children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(pg.servers.map((server) => server.close({ graceMs: 500 }).catch(() => {})));
    await Promise.all(pg.databases.map((database) => database.close().catch(() => {})));
    await Promise.all(outsiders.map((client) => client.end().catch(() => {})));
    await pg.pgi?.destroy();
  }, 30_000);
  return pg;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
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

/**
 * The API's backends in `datname` that wait for a lock (optionally: running `queryLike`).
 * `observer` must not be inside a transaction: pg_stat_activity is a snapshot per transaction.
 */
export async function lockWaiters(observer: SqlSession, datname: string, queryLike = '%') {
  const { rows } = await observer.query<{ pid: number; backend_xid: string | null }>(
    `select pid, backend_xid::text from pg_stat_activity
      where application_name = 'music-api' and datname = $1 and wait_event_type = 'Lock' and query like $2`,
    [datname, queryLike],
  );
  return rows;
}

export async function waitForLockWaiters(
  observer: SqlSession,
  datname: string,
  count: number,
  queryLike = '%',
) {
  return until(
    async () => {
      const rows = await lockWaiters(observer, datname, queryLike);
      return rows.length >= count ? rows : undefined;
    },
    10_000,
    `${count} API backend(s) waiting on a lock`,
  );
}

/** The contract's 503: the error body, Retry-After, JSON. */
export function expectUnavailable(res: Response, label: string) {
  expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBe(503);
  expect(res.body, label).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
  expect(res.headers.get('retry-after'), label).toBe('5');
  expect(res.headers.get('content-type'), label).toMatch(/^application\/json/);
}
