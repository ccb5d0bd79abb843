import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createDeps, DEFAULT_SETTINGS, ensureAdmin, jobQueues } from '@music/api-router';
import { createTokenService } from '@music/auth';
import { createDatabase, createJobs, type Database, type MigrationReport, uuidv7 } from '@music/db';
import { createApp } from './app';
import { requestIdOf } from './http/http';
import { operationOf } from './http/operation-label';
import { startBackground } from './runtime/background';
import { createBudgets } from './runtime/budgets';
import { seedDemoData } from './runtime/demo-seed';
import { drainable } from './runtime/drain';
import { type Env, loadEnv } from './runtime/env';
import { startHousekeeping } from './runtime/housekeeping';
import { IMPORT_EXPIRY_SECONDS, importWork } from './runtime/imports';
import { createLogger } from './runtime/logger';
import { createMailer } from './runtime/mailer';
import { createMetrics } from './runtime/metrics';
import { oneLine } from './runtime/one-line';
import { startReads } from './runtime/replicas';
import { startTracing, type Tracing } from './runtime/tracing';
import { createIdempotency } from './v1/idempotency';
import { ATTEMPT_EXPIRY_SECONDS, webhookWork } from './webhooks/runtime';

/**
 * How often each instance probes for background work: it offers to turn new events into webhook
 * deliveries (first attempt within ~2 s) and starts its import worker once an import waits.
 */
const BACKGROUND_TICK_MS = 1_000;
/** How often some instance gives the jobs of killed instances back to the queue. */
const JOB_MAINTENANCE_SECONDS = 5;
/** How often an instance writes when API keys were last used. */
const KEY_USE_FLUSH_MS = 15_000;
export const TOKEN_ISSUER = 'music-catalogue';
export const TOKEN_AUDIENCE = 'music-catalogue-api';

export interface RunningServer {
  server: Server;
  url: string;
  database: Database;
  /**
   * Readiness answers 503 from now on; everything else is served for `delayMs` more (the
   * balancer's health check notices and sends no new requests), then the listener closes,
   * connections already established are answered, in-flight requests finish (up to `graceMs`)
   * and the database closes.
   */
  close(options?: { delayMs?: number; graceMs?: number }): Promise<void>;
}

function openDatabase(env: Env, log: ReturnType<typeof createLogger>): Promise<Database> {
  return createDatabase({
    databaseUrl: env.DATABASE_URL,
    pooler: env.DATABASE_POOLER,
    directUrl: env.DATABASE_DIRECT_URL,
    dataDir: env.DATA_DIR,
    poolMax: env.DB_POOL_MAX,
    readUrls: env.readUrls,
    readPooler: env.DATABASE_READ_POOLER,
    onPoolError: (error) => log.warn('database connection lost', { error: error.message }),
  });
}

/** Starts the API: database, migrations (under a lock), bootstrap admin, HTTP listener. */
export async function startServer(
  env: Env,
  injected?: { database?: Database; tracing?: Tracing },
): Promise<RunningServer> {
  const log = createLogger(env.LOG_LEVEL, env.LOG_FORMAT);
  const database = injected?.database ?? (await openDatabase(env, log));
  if (!injected?.database) {
    try {
      const report =
        env.MIGRATE_ON_START === 'true' ? await database.migrate() : await database.checkMigrations();
      logMigrations(log, report);
      // Migrations reach the server directly; requests go through DATABASE_URL. A pooler that
      // refuses this connection (or a URL that is wrong) is a start-up failure, said here, not a
      // 503 on every request later.
      await database.ping(10_000);
    } catch (error) {
      await database.close().catch(() => {});
      throw error;
    }
  }

  const tokens = createTokenService({
    secret: env.jwtSecret,
    previousSecrets: env.jwtPreviousSecrets,
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
  });
  const mailer = createMailer({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    development: env.NODE_ENV === 'development',
    log,
  });
  const reads = await startReads(database, env.REPLICA_MAX_LAG_SECONDS, log);
  // Only with a token: an instance nobody scrapes keeps no figures (nothing on the request path).
  const metrics = env.METRICS_TOKEN
    ? createMetrics({
        token: env.METRICS_TOKEN,
        pools: () => database.pools(),
        replicas: () => reads?.status() ?? [],
      })
    : undefined;
  const policy = {
    allowHttp: env.WEBHOOK_ALLOW_HTTP === 'true',
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
  };
  const jobs = createJobs(database.jobs, {
    queues: jobQueues({
      deliveryExpireSeconds: ATTEMPT_EXPIRY_SECONDS,
      importExpireSeconds: IMPORT_EXPIRY_SECONDS,
    }),
    maintenanceSeconds: JOB_MAINTENANCE_SECONDS,
    onError: (error) => log.warn('job queue error', { error: error.message }),
  });
  const deps = createDeps({
    db: database.db,
    tokens,
    log,
    settings: {
      ...DEFAULT_SETTINGS,
      loginMaxFailuresPerEmail: env.LOGIN_MAX_FAILURES_PER_EMAIL,
      loginMaxFailuresPerAddress: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
      refreshReuseGraceSeconds: env.REFRESH_REUSE_GRACE_SECONDS,
      signupsPerAddressPerHour: env.SIGNUPS_PER_ADDRESS_PER_HOUR,
      passwordResetsPerQuarterHour: env.PASSWORD_RESETS_PER_QUARTER_HOUR,
      consoleUrl: env.CONSOLE_URL,
      webhookUrlPolicy: policy,
    },
    mailer,
    jobs,
    ...(metrics ? { observer: metrics.observer } : {}),
    reads,
  });
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) await ensureAdmin(deps, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
  if (env.SEED_DEMO_DATA === 'true' && env.NODE_ENV !== 'production') await seedDemoData(deps);

  // lastUsedAt of API keys, written in batches (not by each request that uses a key).
  deps.keyUse.start(KEY_USE_FLUSH_MS);
  let draining = false;
  // Shared by every instance through the database (version 1.1).
  const budgets = createBudgets({
    db: database.db,
    log,
    perUser: env.RATE_LIMIT_PER_MINUTE,
    perAnonymous: env.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    ...(metrics ? { onRefused: metrics.budgetRefused } : {}),
  });
  const idempotency = createIdempotency({ db: database.db, log });
  const handler = createApp({
    deps,
    database,
    trustProxy: env.trustProxy,
    corsOrigins: env.corsOrigins,
    isDraining: () => draining,
    budgets,
    idempotency,
    ...(metrics ? { metrics } : {}),
  });
  // Off (undefined) unless OTEL_EXPORTER_OTLP_ENDPOINT is set: see runtime/tracing.ts.
  const tracing = injected?.tracing ?? (await startTracing(env, log));
  const server = createServer(
    {
      // Slow or oversized headers are cut off instead of holding a socket.
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      // How often those two timeouts are checked: node's default (30 s) would let a slow
      // client hold its socket for up to 40 s instead of 10.
      connectionsCheckingInterval: 1_000,
      maxHeaderSize: 16 * 1024,
    },
    (req, res) => {
      const started = process.hrtime.bigint();
      const requestId = requestIdOf(req, uuidv7);
      res.on('finish', () => {
        const ms = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
        log.request({
          method: req.method,
          path: req.url?.split('?')[0],
          status: res.statusCode,
          ms,
          requestId,
        });
        metrics?.request(operationOf(res), req.method ?? 'GET', res.statusCode, ms / 1000);
      });
      if (tracing) tracing.serve(req, res, requestId, () => handler(req, res, requestId));
      else void handler(req, res, requestId);
    },
  );
  server.keepAliveTimeout = 5_000;
  const connections = drainable(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.PORT, env.HOST, resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  const housekeeping =
    env.HOUSEKEEPING_INTERVAL_SECONDS === 0
      ? { stop: async () => {} }
      : startHousekeeping({
          db: database.db,
          log,
          periodSeconds: env.HOUSEKEEPING_INTERVAL_SECONDS,
          batchSize: env.HOUSEKEEPING_BATCH_SIZE,
          throttleWindowSeconds: deps.settings.loginWindowSeconds,
          auditRetentionDays: env.AUDIT_RETENTION_DAYS,
          eventRetentionDays: env.EVENT_RETENTION_DAYS,
          ...(metrics ? { onRun: metrics.housekeeping } : {}),
        });

  const background = startBackground({
    db: database.db,
    jobs,
    log,
    everyMs: BACKGROUND_TICK_MS,
    parts: [
      webhookWork({
        db: database.db,
        jobs,
        queue: deps.deliveries,
        log,
        retrySeconds: env.WEBHOOK_RETRY_SECONDS,
        maxFailures: env.WEBHOOK_MAX_FAILURES,
        policy,
      }),
      importWork(deps, database.kind === 'embedded'),
    ],
  });

  let closing: Promise<void> | undefined;
  const close: RunningServer['close'] = ({ delayMs = 0, graceMs = 10_000 } = {}) => {
    closing ??= (async () => {
      draining = true;
      await connections.drain({ delayMs, graceMs });
      await housekeeping.stop();
      // Deliveries and import slices under way get the grace, then go back to the queue.
      await background.stop(graceMs);
      await deps.keyUse.stop();
      // After the last request: what this instance counted still counts for the others.
      await budgets.stop();
      await mailer.close();
      await reads?.stop();
      if (!injected?.database) await database.close();
      // The spans of the last requests, sent within a short bound.
      if (!injected?.tracing) await tracing?.shutdown(2_000);
    })();
    return closing;
  };
  return { server, url, database, close };
}

function logMigrations(log: ReturnType<typeof createLogger>, report: MigrationReport): void {
  if (report.applied.length > 0) log.info('migrations applied', { migrations: report.applied });
  if (report.ahead.length > 0) {
    log.info('the database is ahead of this release by additive migrations; serving', {
      migrations: report.ahead,
    });
  }
}

/** `pnpm migrate`: applies pending migrations on DATABASE_DIRECT_URL (or DATABASE_URL) and exits. */
async function migrateOnly(env: Env): Promise<void> {
  const log = createLogger(env.LOG_LEVEL, env.LOG_FORMAT);
  const database = await openDatabase(env, log);
  try {
    const report = await database.migrate();
    logMigrations(log, report);
    if (report.applied.length === 0 && report.ahead.length === 0) log.info('migrations: nothing to apply');
  } finally {
    await database.close();
  }
}

async function main(args: string[]) {
  const env = loadEnv();
  if (args[0] === 'migrate') return migrateOnly(env);
  if (args.length > 0) throw new Error(`unknown argument ${args[0]} (the only one is \`migrate\`)`);
  const log = createLogger(env.LOG_LEVEL, env.LOG_FORMAT);
  if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
    log.warn(
      'SMTP_URL is not set: no mail is sent (password reset links, welcome mails); admins can still make reset links',
    );
  }
  if (env.DATABASE_URL && env.jwtSecretSource === 'generated') {
    log.warn(
      "JWT_SECRET is not set: signing with the key kept in DATA_DIR; instances that do not share that folder refuse each other's tokens",
      { dataDir: env.DATA_DIR },
    );
  }
  // Signals are taken from the start, so one that arrives as the API says it listens finds its
  // handler (the drain), and one during start-up ends it cleanly.
  let running: RunningServer | undefined;
  let stopping: NodeJS.Signals | undefined;
  const shutdown = (server: RunningServer, signal: NodeJS.Signals) => {
    // Ctrl-C is a person at a terminal: no balancer to wait for.
    const delayMs = signal === 'SIGTERM' ? env.SHUTDOWN_DELAY_SECONDS * 1000 : 0;
    log.info('shutting down', { signal, delaySeconds: delayMs / 1000 });
    server.close({ delayMs }).then(
      () => {
        log.info('shut down');
        process.exit(0);
      },
      (error: unknown) => {
        log.error('shutdown failed', { error: oneLine(error) });
        process.exit(1);
      },
    );
  };
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = signal;
    if (running) return shutdown(running, signal);
    // Still starting: nothing is served yet, so nothing to drain.
    log.info('stopped while starting', { signal });
    process.exit(0);
  };
  // Once each: a second Ctrl-C ends the process at once.
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  running = await startServer(env);
  log.info('api listening', {
    url: running.url,
    database:
      running.database.kind === 'embedded'
        ? `embedded (${env.DATA_DIR})`
        : `postgresql${env.DATABASE_POOLER === 'transaction' ? ' through a transaction-mode pooler' : ''}`,
    rest: `${running.url}/v1`,
    docs: `${running.url}/v1/docs`,
  });
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`music-api: start-up failed: ${oneLine(error)}\n`);
    process.exit(1);
  });
}
