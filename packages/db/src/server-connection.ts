import { Kysely } from 'kysely';
import pg from 'pg';
import { postgresDialect } from './driver/dialect';
import {
  type DriverOptions,
  PipelinedDriver,
  SharedClients,
  singleStatementRunner,
} from './driver/pg-driver';
import type { Db, Database as Schema } from './schema';
import { registerDirectStatements } from './sql';

/** One connection pool's use at a moment. */
export interface PoolUse {
  /**
   * `primary` (pooled connections: transactions, writes), `primary-pipelined` (shared single
   * reads), `replica-N` and `replica-N-pipelined` likewise, `embedded`.
   */
  pool: string;
  max: number;
  open: number;
  /** Open and not running anything. */
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

export interface ServerSettings {
  /** What its pools are called in metrics: `primary`, `replica-1`. */
  name: string;
  pooler?: 'none' | 'transaction' | undefined;
  statementTimeoutMs: number;
  connectionTimeoutMs: number;
  applicationName: string;
  /** Every connection to this server, pooled and pipelined together. */
  poolMax: number;
  onError: (error: Error) => void;
}

/** A PostgreSQL server as the API reaches it: its Kysely handle and the pools under it. */
export interface ServerConnection {
  name: string;
  db: Db;
  /** The pool of transactions and writes (also what a job queue's SQL runs on). */
  pool: pg.Pool;
  pools(): PoolUse[];
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

/** Opens (lazily: connections are made when first used) the pools of one server. */
export function connectServer(url: string, settings: ServerSettings): ServerConnection {
  const statementTimeout = settings.statementTimeoutMs;
  const behindPooler = settings.pooler === 'transaction';
  const base: pg.ClientConfig = {
    connectionTimeoutMillis: settings.connectionTimeoutMs,
    application_name: settings.applicationName,
  };
  const connection: pg.ClientConfig = behindPooler
    ? {
        ...base,
        connectionString: url,
        // A pooler refuses (PgBouncer) or pins the connection for (RDS Proxy) startup parameters
        // such as statement_timeout: transactions set it with SET LOCAL instead, and single
        // statements are bounded on this side, closing the connection when it fires.
        query_timeout: statementTimeout,
      }
    : {
        ...base,
        connectionString: url,
        statement_timeout: statementTimeout,
        // Client-side backstop for a server that stopped answering without closing the socket.
        query_timeout: statementTimeout + 5_000,
      };
  const budget = connectionBudget(settings.poolMax);
  const pool = new pg.Pool({ ...connection, max: budget.pooled, idleTimeoutMillis: 30_000 });
  // Without a listener, an idle client's error (e.g. the server restarting: 57P01) would be
  // an uncaught 'error' event and kill the process. The pool drops the client by itself.
  pool.on('error', settings.onError);
  const options: DriverOptions = {
    pool,
    shared: budget.shared > 0 ? new SharedClients(connection, budget.shared, settings.onError) : undefined,
    prepared: !behindPooler,
    transactionPrelude: behindPooler ? `; set local statement_timeout = ${Math.floor(statementTimeout)}` : '',
  };
  const db = new Kysely<Schema>({ dialect: postgresDialect(() => new PipelinedDriver(options)) });
  registerDirectStatements(db, singleStatementRunner(options));
  const { name } = settings;
  return {
    name,
    db,
    pool,
    pools() {
      const use: PoolUse[] = [
        {
          pool: name,
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
          pool: `${name}-pipelined`,
          max: shared.size,
          open: shared.open,
          idle: shared.open - shared.busy,
          waiting: 0,
        });
      }
      return use;
    },
  };
}
