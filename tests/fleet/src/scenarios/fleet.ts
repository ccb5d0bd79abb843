import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { type HAProxy, startHaproxy } from '../haproxy';
import { API_BUNDLE, apiInstance, type Instance, WEB_DIR } from '../instances';
import { type PgBouncer, startPgBouncer } from '../pgbouncer';
import {
  connectSession,
  findPostgresTools,
  type PostgresInstance,
  type SqlSession,
  startPostgres,
  startReplica,
} from '../postgres';
import { type Cleanup, sleep, until } from '../processes';
import { type Requests, requests } from './requests';

export const METRICS_TOKEN = `fleet-metrics-${randomBytes(12).toString('hex')}`;
export const OLD_KEY = `fleet-key-one-${randomBytes(24).toString('hex')}`;
export const NEW_KEY = `fleet-key-two-${randomBytes(24).toString('hex')}`;
export const ADMIN = { email: 'admin@fleet.test', password: 'fleet-admin-password' };
/** Longer than HAProxy needs to take a stopping instance out (one failed check, 300 ms apart). */
const SHUTDOWN_DELAY_SECONDS = 2;
export const CHECK_INTERVAL_MS = 300;

/** The running fleet, as the scenarios drive it. */
export interface Fleet extends Requests {
  apis: Instance[];
  /** In front of the primary. */
  pgbouncer: PgBouncer;
  /** The primary's streaming replica, reached through a PgBouncer of its own. */
  replica: PostgresInstance;
  balancer: HAProxy;
  /** The settings every API instance starts with. */
  apiEnv(): Record<string, string>;
  /** Runs `work` on a connection of its own straight to the fleet's database (a DBA's view). */
  onDatabase<T>(work: (db: SqlSession) => Promise<T>): Promise<T>;
  /** SIGTERM, exit 0, start again and ready: one step of a rolling restart. */
  restart(api: Instance, overrides?: Record<string, string>): Promise<void>;
}

/**
 * A PostgreSQL server of its own (initdb) and a streaming replica of it (pg_basebackup), each
 * behind a PgBouncer of its own, three API instances started together on the empty database
 * reading the catalogue from the replica, and HAProxy in front of them; `cleanup` releases it all.
 */
export async function startFleet(cleanup: Cleanup): Promise<Fleet> {
  for (const artefact of [API_BUNDLE, path.join(WEB_DIR, '.next/BUILD_ID')]) {
    if (!existsSync(artefact)) throw new Error(`${artefact} is missing: run \`pnpm build\` first`);
  }
  const tools = findPostgresTools();
  if ('unavailable' in tools) throw new Error(`the fleet needs PostgreSQL's tools: ${tools.unavailable}`);
  const database = 'music_fleet';
  const primary = await startPostgres(tools);
  cleanup.add(() => primary.destroy());
  const directUrl = new URL(await primary.createDatabase(database));
  const replica = await startReplica(tools, primary);
  cleanup.add(() => replica.destroy());
  const pgbouncer = await startPgBouncer({ serverHost: '127.0.0.1', serverPort: primary.port });
  cleanup.add(() => pgbouncer.destroy());
  const replicaBouncer = await startPgBouncer({ serverHost: '127.0.0.1', serverPort: replica.port });
  cleanup.add(() => replicaBouncer.destroy());

  const apiEnv = (): Record<string, string> => ({
    NODE_ENV: 'production',
    DATABASE_URL: pgbouncer.url(database),
    DATABASE_POOLER: 'transaction',
    DATABASE_DIRECT_URL: directUrl.toString(),
    // The catalogue's reads from the replica, through its own transaction-mode PgBouncer.
    DATABASE_READ_URLS: replicaBouncer.url(database),
    METRICS_TOKEN,
    JWT_SECRET: OLD_KEY,
    TRUST_PROXY: 'loopback',
    DB_POOL_MAX: '6',
    SHUTDOWN_DELAY_SECONDS: String(SHUTDOWN_DELAY_SECONDS),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    // Webhooks to the scenarios' receivers on loopback.
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // Budgets on (their cost included), above what the load scenarios reach: they drive one user
    // at 80 requests a second. The budgets scenario starts instances with a small budget.
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
    // Every scenario signs up from the balancer's one address: the limit is on, far above them.
    SIGNUPS_PER_ADDRESS_PER_HOUR: '10000',
  });

  // Three instances started at the same moment on the empty database.
  const apis = await Promise.all(['api1', 'api2', 'api3'].map((name) => apiInstance(name, apiEnv())));
  cleanup.add(() => Promise.all(apis.map((api) => api.stop('SIGINT'))));
  await Promise.all(apis.map((api) => api.start()));

  const balancer = await startHaproxy([
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

  return {
    ...requests(balancer.url('api')),
    apis,
    pgbouncer,
    replica,
    balancer,
    apiEnv,
    async onDatabase(work) {
      const db = await connectSession(directUrl.toString(), 'fleet-test');
      return work(db).finally(() => db.end());
    },
    async restart(api, overrides) {
      const exit = await api.stop('SIGTERM');
      expect(exit, `${api.name} after SIGTERM: ${api.child().output().slice(-1000)}`).toEqual({
        code: 0,
        signal: null,
      });
      await api.start(overrides);
      // Back in the balancer's rotation before the next one goes.
      await sleep(CHECK_INTERVAL_MS * 3);
    },
  };
}
