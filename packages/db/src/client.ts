import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { postgresDialect } from './driver/dialect';
import {
  type DriverOptions,
  PipelinedDriver,
  SharedClients,
  singleStatementRunner,
} from './driver/pg-driver';
import { PGliteDriver } from './driver/pglite-dialect';
import { checkMigrations, type MigrationReport, migrateToLatest } from './migrate';
import type { Db, Database as Schema } from './schema';
import { registerDirectStatements } from './sql';

export interface DatabaseConfig {
  /** A PostgreSQL URL; when absent the embedded database is used. */
  databaseUrl?: string | undefined;
  /**
   * `transaction`: `databaseUrl` names a transaction-mode pooler (PgBouncer, RDS Proxy,
   * Supavisor). Nothing that outlives a transaction goes through it: no startup parameters, no
   * session `SET`, no named statements.
   */
  pooler?: 'none' | 'transaction' | undefined;
  /** The server itself, for migrations (a session-level lock); default `databaseUrl`. */
  directUrl?: string | undefined;
  /** Folder of the embedded database; absent means in memory (tests). */
  dataDir?: string | undefined;
  /**
   * A dump (`dumpDataDir`) the embedded database starts from instead of an empty cluster:
   * tests start every file from one migrated snapshot rather than running initdb and the
   * migrations again. Ignored with `databaseUrl`.
   */
  loadDataDir?: Blob | undefined;
  /** Every connection to `databaseUrl` this handle may hold at once, shared and pooled together. */
  poolMax?: number | undefined;
  /** Server-side statement timeout, in ms: a runaway query must not hold a connection forever. */
  statementTimeoutMs?: number | undefined;
  /** How long a request waits for a pooled connection before failing (503) instead of queueing forever. */
  connectionTimeoutMs?: number | undefined;
  /** How connections name themselves to the server (pg_stat_activity); default `music-api`. */
  applicationName?: string | undefined;
  onPoolError?: ((error: Error) => void) | undefined;
}

export interface Database {
  db: Db;
  kind: 'postgres' | 'embedded';
  /** Resolves when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Applies pending migrations (under a lock: instances starting together migrate once). A
   * database already ahead of this release by additive migrations only is left as it is.
   */
  migrate(): Promise<MigrationReport>;
  /** Refuses (throws) unless every migration of this release is applied and nothing newer is incompatible. */
  checkMigrations(): Promise<MigrationReport>;
  close(): Promise<void>;
  /** Its connection pools as they are now, for metrics. */
  pools(): PoolUse[];
  /**
   * Plain SQL for a job queue library (pg-boss's `db` option): a statement with parameters, or,
   * without, a script of several. On a server it uses the pool (unnamed statements only, so it
   * works through a transaction-mode pooler); on the embedded database it waits its turn for
   * the one session like every other query.
   */
  jobs: SqlExecutor;
}

/** One connection pool's use at a moment. */
export interface PoolUse {
  /** `primary` (pooled connections: transactions, writes), `primary-pipelined` (shared single reads), `embedded`. */
  pool: string;
  max: number;
  open: number;
  /** Open and not running anything. */
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

/** What a queue library needs of a database: run SQL, get rows. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.databaseUrl) return createPostgres(config.databaseUrl, config);
  return createEmbedded(config.dataDir, config.loadDataDir);
}

/**
 * How DB_POOL_MAX connections are shared out: a few pipelined connections for single reads
 * (each carries many requests' statements at once), the rest pooled for transactions and
 * writes. Below three there is nothing to spare: everything goes through the pool.
 */
export function connectionBudget(total: number): { shared: number; pooled: number } {
  const shared = total < 3 ? 0 : Math.min(4, Math.max(1, Math.floor(total / 3)));
  return { shared, pooled: total - shared };
}

function createPostgres(databaseUrl: string, config: DatabaseConfig): Database {
  const statementTimeout = config.statementTimeoutMs ?? 15_000;
  const behindPooler = config.pooler === 'transaction';
  const base: pg.ClientConfig = {
    connectionTimeoutMillis: config.connectionTimeoutMs ?? 5_000,
    application_name: config.applicationName ?? 'music-api',
  };
  const connection: pg.ClientConfig = behindPooler
    ? {
        ...base,
        connectionString: databaseUrl,
        // A pooler refuses (PgBouncer) or pins the connection for (RDS Proxy) startup parameters
        // such as statement_timeout: transactions set it with SET LOCAL instead, and single
        // statements are bounded on this side, closing the connection when it fires.
        query_timeout: statementTimeout,
      }
    : {
        ...base,
        connectionString: databaseUrl,
        statement_timeout: statementTimeout,
        // Client-side backstop for a server that stopped answering without closing the socket.
        query_timeout: statementTimeout + 5_000,
      };
  const onError = (error: Error) => config.onPoolError?.(error);
  const budget = connectionBudget(config.poolMax ?? 10);
  const pool = new pg.Pool({ ...connection, max: budget.pooled, idleTimeoutMillis: 30_000 });
  // Without a listener, an idle client's error (e.g. the server restarting: 57P01) would be
  // an uncaught 'error' event and kill the process. The pool drops the client by itself.
  pool.on('error', onError);
  const options: DriverOptions = {
    pool,
    shared: budget.shared > 0 ? new SharedClients(connection, budget.shared, onError) : undefined,
    prepared: !behindPooler,
    transactionPrelude: behindPooler ? `; set local statement_timeout = ${Math.floor(statementTimeout)}` : '',
  };
  const db = new Kysely<Schema>({ dialect: postgresDialect(() => new PipelinedDriver(options)) });
  registerDirectStatements(db, singleStatementRunner(options));
  const pools = (): PoolUse[] => {
    const use: PoolUse[] = [
      {
        pool: 'primary',
        max: budget.pooled,
        open: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      },
    ];
    const shared = options.shared?.use();
    if (shared) {
      // Pipelined: statements never wait for one of these, they queue on it (busy: some under way).
      use.push({
        pool: 'primary-pipelined',
        max: shared.size,
        open: shared.open,
        idle: shared.open - shared.busy,
        waiting: 0,
      });
    }
    return use;
  };

  /**
   * Migrations take a session-level advisory lock, so they run on one plain connection of their
   * own, straight to the server (never through a pooler), opened for the run and closed after
   * it. No statement timeout: building an index on a large table may legitimately take minutes.
   */
  async function withDirect<T>(work: (direct: Kysely<Schema>) => Promise<T>): Promise<T> {
    const direct = new pg.Pool({
      ...base,
      connectionString: config.directUrl ?? databaseUrl,
      max: 1,
    });
    direct.on('error', onError);
    const directDb = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: direct }) });
    try {
      return await work(directDb);
    } finally {
      await directDb.destroy();
    }
  }

  return {
    db,
    kind: 'postgres',
    ping: (timeoutMs = 2_000) => withTimeout(sql`select 1`.execute(db), timeoutMs),
    jobs: { executeSql: (text, values) => pool.query(text, values) },
    pools,
    migrate: () => withDirect((direct) => migrateToLatest(direct)),
    checkMigrations: () => withDirect((direct) => checkMigrations(direct)),
    close: () => db.destroy(),
  };
}

/** What the embedded database loads with; a snapshot made with these is loadable by them. */
export const EMBEDDED_EXTENSIONS = { pg_trgm, unaccent, fuzzystrmatch };

async function createEmbedded(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: EMBEDDED_EXTENSIONS,
  });
  const driver = new PGliteDriver(client);
  const db = new Kysely<Schema>({ dialect: postgresDialect(() => driver) });
  return {
    db,
    kind: 'embedded',
    pools: () => {
      const { busy, waiting } = driver.use();
      return [{ pool: 'embedded', max: 1, open: 1, idle: busy ? 0 : 1, waiting }];
    },
    ping: (timeoutMs = 2_000) => withTimeout(sql`select 1`.execute(db), timeoutMs),
    jobs: {
      executeSql: (text, values) =>
        values && values.length > 0
          ? db.executeQuery(CompiledQuery.raw(text, values))
          : db.connection().execute(async () => (await client.exec(text)).at(-1) ?? { rows: [] }),
    },
    migrate: () => migrateToLatest(db),
    checkMigrations: () => checkMigrations(db),
    close: async () => {
      await db.destroy();
      await client.close();
    },
  };
}

async function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('database ping timed out'), { code: '57014' })),
      ms,
    );
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
