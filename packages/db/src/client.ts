import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrate';
import { PipelinedPostgresDialect, SharedClients, singleStatementRunner } from './pg-driver';
import { PGliteDialect } from './pglite-dialect';
import type { Database as Schema } from './schema';
import { registerDirectStatements } from './sql';

export type Db = Kysely<Schema>;

export interface DatabaseConfig {
  /** A PostgreSQL URL; when absent the embedded database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; absent means in memory (tests). */
  dataDir?: string | undefined;
  /** pg pool size. */
  poolMax?: number | undefined;
  /** Server-side statement timeout, in ms: a runaway query must not hold a connection forever. */
  statementTimeoutMs?: number | undefined;
  /** How long a request waits for a pooled connection before failing (503) instead of queueing forever. */
  connectionTimeoutMs?: number | undefined;
  /** Pipelined connections shared by single statements (transactions use the pool). */
  sharedConnections?: number | undefined;
  onPoolError?: ((error: Error) => void) | undefined;
}

export interface Database {
  db: Db;
  kind: 'postgres' | 'embedded';
  /** Resolves when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  /** Applies pending migrations (under a lock: instances starting together migrate once). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.databaseUrl) return createPostgres(config.databaseUrl, config);
  return createEmbedded(config.dataDir);
}

function createPostgres(databaseUrl: string, config: DatabaseConfig): Database {
  const statementTimeout = config.statementTimeoutMs ?? 15_000;
  const connection: pg.ClientConfig = {
    connectionString: databaseUrl,
    connectionTimeoutMillis: config.connectionTimeoutMs ?? 5_000,
    statement_timeout: statementTimeout,
    // Client-side backstop for a server that stopped answering without closing the socket.
    query_timeout: statementTimeout + 5_000,
    application_name: 'music-api',
  };
  const onError = (error: Error) => config.onPoolError?.(error);
  const pool = new pg.Pool({ ...connection, max: config.poolMax ?? 10, idleTimeoutMillis: 30_000 });
  // Without a listener, an idle client's error (e.g. the server restarting: 57P01) would be
  // an uncaught 'error' event and kill the process. The pool drops the client by itself.
  pool.on('error', onError);
  const shared = new SharedClients(connection, config.sharedConnections ?? 4, onError);
  const db = new Kysely<Schema>({ dialect: new PipelinedPostgresDialect({ pool, shared }) });
  registerDirectStatements(db, singleStatementRunner(pool, shared));
  return {
    db,
    kind: 'postgres',
    ping: (timeoutMs = 2_000) => withTimeout(sql`select 1`.execute(db), timeoutMs),
    async migrate() {
      // Migrations take a session-level advisory lock: they need one plain connection of their own.
      const migrations = new pg.Pool({ ...connection, max: 1 });
      migrations.on('error', onError);
      const migrationDb = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: migrations }) });
      try {
        await migrateToLatest(migrationDb);
      } finally {
        await migrationDb.destroy();
      }
    },
    close: () => db.destroy(),
  };
}

async function createEmbedded(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } });
  const db = new Kysely<Schema>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'embedded',
    ping: (timeoutMs = 2_000) => withTimeout(sql`select 1`.execute(db), timeoutMs),
    migrate: async () => {
      await migrateToLatest(db);
    },
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
