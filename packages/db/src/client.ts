import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { postgresDialect } from './driver/dialect';
import { PGliteDriver } from './driver/pglite-dialect';
import { checkMigrations, type MigrationReport, migrateToLatest } from './migrate';
import type { Db, Database as Schema } from './schema';
import { connectServer, type PoolUse, type ServerConnection } from './server-connection';

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
  /**
   * Read replicas of `databaseUrl` (streaming standbys), each reached directly or through its own
   * pooler: reads that may be a moment old go there (see ReadRouter). Each gets pools as large as
   * the primary's (`poolMax`).
   */
  readUrls?: readonly string[] | undefined;
  /** `transaction`: the `readUrls` are transaction-mode poolers; default `pooler`. */
  readPooler?: 'none' | 'transaction' | undefined;
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
  /** Its connection pools as they are now, for metrics (the primary's, then each replica's). */
  pools(): PoolUse[];
  /** The read replicas (`readUrls`), in their order; none on the embedded database. */
  replicas: ServerConnection[];
  /**
   * Plain SQL for a job queue library (pg-boss's `db` option): a statement with parameters, or,
   * without, a script of several. On a server it uses the pool (unnamed statements only, so it
   * works through a transaction-mode pooler); on the embedded database it waits its turn for
   * the one session like every other query.
   */
  jobs: SqlExecutor;
}

/** What a queue library needs of a database: run SQL, get rows. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.databaseUrl) return createPostgres(config.databaseUrl, config);
  return createEmbedded(config.dataDir, config.loadDataDir);
}

function createPostgres(databaseUrl: string, config: DatabaseConfig): Database {
  const onError = (error: Error) => config.onPoolError?.(error);
  const settings = {
    statementTimeoutMs: config.statementTimeoutMs ?? 15_000,
    connectionTimeoutMs: config.connectionTimeoutMs ?? 5_000,
    applicationName: config.applicationName ?? 'music-api',
    poolMax: config.poolMax ?? 10,
    onError,
  };
  const primary = connectServer(databaseUrl, { ...settings, name: 'primary', pooler: config.pooler });
  const { db, pool } = primary;
  // Named by their place in the list, never by their URLs (which may carry passwords).
  const replicas: ServerConnection[] = (config.readUrls ?? []).map((url, i) =>
    connectServer(url, { ...settings, name: `replica-${i + 1}`, pooler: config.readPooler ?? config.pooler }),
  );
  const base = {
    connectionTimeoutMillis: settings.connectionTimeoutMs,
    application_name: settings.applicationName,
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
    replicas,
    ping: (timeoutMs = 2_000) => withTimeout(sql`select 1`.execute(db), timeoutMs),
    jobs: { executeSql: (text, values) => pool.query(text, values) },
    pools: () => [primary, ...replicas].flatMap((server) => server.pools()),
    migrate: () => withDirect((direct) => migrateToLatest(direct)),
    checkMigrations: () => withDirect((direct) => checkMigrations(direct)),
    close: async () => {
      await Promise.all([db.destroy(), ...replicas.map((replica) => replica.db.destroy())]);
    },
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
    replicas: [],
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

export { connectionBudget, type PoolUse, type ServerConnection } from './server-connection';
