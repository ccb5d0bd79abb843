import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from '../errors';
import { beginCommand } from './dialect';
import { statementObserver } from './observe';
import { isStalePlan, renewStatement, type Statement, statementFor } from './prepared';

/**
 * Kysely over node-postgres, built for throughput on few cores:
 * - Single statements (most requests) go to a few long-lived clients in pg's pipeline mode:
 *   many requests' queries are on the wire of one connection at once, instead of each
 *   request checking a connection out of a pool and waiting for a round trip.
 * - Transactions check a connection out of an ordinary pool for their whole length, so no
 *   other request's statement can land inside them.
 * - Single statements that change data go to that pool too. Their commit waits for the WAL to
 *   reach the disk, and on a pipelined client every read queued behind would wait as well: a
 *   slow flush (milliseconds normally, hundreds on a busy shared disk) stalled all reads.
 *   Reads never wait for another request's commit.
 * - On a server connection of our own, statements are named prepared statements (parsed and
 *   planned once per connection). Behind a transaction-mode pooler a "connection" is a
 *   different server connection from one statement to the next, so a name prepared on one is
 *   unknown (or already taken) on another: there every statement is unnamed, and parsed and
 *   planned each time. A plan cached across a schema change that alters its result ("cached
 *   plan must not change result type") is prepared again: a single statement is retried at
 *   once, a transaction fails once with 503 (statements name their columns, so adding one
 *   never does this).
 *
 * Kysely hands out a connection before it knows whether a transaction follows; the
 * connection here binds to a pooled client only when `beginTransaction` is called.
 * Session-scoped state (advisory locks, SET) must not be used through this driver outside a
 * transaction: migrations therefore run on a connection of their own (see client.ts).
 */
export interface DriverOptions {
  pool: pg.Pool;
  /** Pipelined clients for single reads; none: every statement goes through the pool. */
  shared: SharedClients | undefined;
  /** Name statements (prepared once per connection); false behind a pooler. */
  prepared: boolean;
  /** Sent with `begin`, in the same round trip (behind a pooler: the statement timeout). */
  transactionPrelude: string;
}

/** A fixed number of pipelined clients, used round robin, replaced when their connection dies. */
export class SharedClients {
  readonly #clients: Array<Promise<pg.Client> | undefined>;
  /** Statements sent and not yet answered, by client. */
  readonly #inFlight: number[];
  #next = 0;
  #slot: number | undefined;
  #ended = false;

  constructor(
    private readonly config: pg.ClientConfig,
    size: number,
    private readonly onError: (error: Error) => void,
  ) {
    this.#clients = new Array(size).fill(undefined);
    this.#inFlight = new Array(size).fill(0);
  }

  /** One statement on the shared client of this event-loop turn. */
  async query(config: pg.QueryConfig): Promise<pg.QueryResult> {
    const slot = this.#slotOfTurn();
    const client = await this.#get();
    coalesceWrites(client);
    this.#inFlight[slot]!++;
    try {
      return await client.query(config);
    } finally {
      this.#inFlight[slot]!--;
    }
  }

  /** How many clients are connected, and how many of them have statements under way. */
  use(): { size: number; open: number; busy: number } {
    const open = this.#clients.filter((client) => client !== undefined).length;
    const busy = this.#inFlight.filter((n) => n > 0).length;
    return { size: this.#clients.length, open, busy };
  }

  /**
   * Every statement of one event-loop turn goes to the same client, so they leave in one write
   * (see coalesceWrites); the next turn moves on to the next client.
   */
  #slotOfTurn(): number {
    if (this.#slot === undefined) {
      this.#slot = this.#next++ % this.#clients.length;
      setImmediate(() => {
        this.#slot = undefined;
      });
    }
    return this.#slot;
  }

  #get(): Promise<pg.Client> {
    if (this.#ended) return Promise.reject(new Error('Cannot use a pool after calling end'));
    const slot = this.#slotOfTurn();
    let client = this.#clients[slot];
    if (!client) {
      client = this.#connect(slot);
      this.#clients[slot] = client;
    }
    return client;
  }

  #connect(slot: number): Promise<pg.Client> {
    const client = new pg.Client({ ...this.config, pipeline: true } as pg.ClientConfig);
    const drop = () => {
      if (this.#clients[slot] === connecting) this.#clients[slot] = undefined;
    };
    client.on('error', (error) => {
      drop();
      this.onError(error);
    });
    client.on('end', drop);
    const connecting = client.connect().then(
      () => client,
      (error: unknown) => {
        drop();
        client.end().catch(() => {});
        throw error;
      },
    );
    return connecting;
  }

  async end(): Promise<void> {
    this.#ended = true;
    const clients = this.#clients.splice(0);
    await Promise.all(clients.map((c) => c?.then((client) => client.end()).catch(() => {})));
  }
}

const CHANGES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

function toResult<R>(result: pg.QueryResult): QueryResult<R> {
  return {
    rows: result.rows as R[],
    ...(CHANGES.has(result.command) && result.rowCount !== null
      ? { numAffectedRows: BigInt(result.rowCount) }
      : {}),
  };
}

const corked = new WeakSet<pg.Client>();

/**
 * pg writes every query to the socket as soon as it is submitted: one `writev` system call per
 * query, which was a third of the API's CPU on the song detail. A shared client's socket is
 * corked instead until the event loop's check phase, so every query submitted while one batch
 * of I/O events is handled (many requests' queries) leaves in one write.
 */
function coalesceWrites(client: pg.Client): void {
  if (corked.has(client)) return;
  const stream = (
    client as unknown as { connection?: { stream?: NodeJS.WritableStream & Partial<Corkable> } }
  ).connection?.stream;
  if (!stream?.cork || !stream.uncork) return;
  corked.add(client);
  stream.cork();
  setImmediate(() => {
    corked.delete(client);
    stream.uncork?.();
  });
}

interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * One statement outside a transaction: a write on a pooled connection, a read on a shared
 * pipelined one. What a Kysely connection does for it, and what `runSql` (sql.ts) calls directly.
 */
function runSingleStatement<R>(
  options: DriverOptions,
  text: string,
  values: readonly unknown[],
): Promise<QueryResult<R>> {
  const observe = statementObserver;
  if (!observe) return runStatement<R>(options, text, values);
  return observe(text, 'server', () => runStatement<R>(options, text, values));
}

async function runStatement<R>(
  options: DriverOptions,
  text: string,
  values: readonly unknown[],
): Promise<QueryResult<R>> {
  const statement = statementFor(text);
  try {
    return await runOnce<R>(options, statement, text, values);
  } catch (error) {
    // A column was added (or changed) since this connection prepared the statement: prepare it
    // again under a new name. Nothing ran: the error comes before execution.
    if (!options.prepared || !isStalePlan(error)) throw error;
    return runOnce<R>(options, renewStatement(text), text, values);
  }
}

async function runOnce<R>(
  options: DriverOptions,
  statement: Statement,
  text: string,
  values: readonly unknown[],
): Promise<QueryResult<R>> {
  const config = options.prepared
    ? { name: statement.name, text, values: values as unknown[] }
    : { text, values: values as unknown[] };
  if (statement.mayWrite || !options.shared) return toResult<R>(await options.pool.query(config));
  return toResult<R>(await options.shared.query(config));
}

/** A statement runner bound to one database's pool and shared clients. */
export function singleStatementRunner(options: DriverOptions) {
  return <R>(text: string, values: readonly unknown[]) => runSingleStatement<R>(options, text, values);
}

class LazyConnection implements DatabaseConnection {
  exclusive: pg.PoolClient | undefined;
  /** The exclusive client's connection failed: it is destroyed, not returned to the pool. */
  broken = false;
  /**
   * pg-pool removes its error listener from a checked-out client: without this one, the
   * connection dying mid-transaction (server restart, terminated backend) would be an
   * uncaught 'error' event and kill the process. The failing query rejects as well.
   */
  readonly onExclusiveError = () => {
    this.broken = true;
  };
  constructor(private readonly options: DriverOptions) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.exclusive) return runSingleStatement<R>(this.options, query.sql, query.parameters);
    const values = query.parameters as unknown[];
    const exclusive = this.exclusive;
    const config = this.options.prepared
      ? { name: statementFor(query.sql).name, text: query.sql, values }
      : { text: query.sql, values };
    const observe = statementObserver;
    try {
      const result = observe
        ? await observe(query.sql, 'server', () => exclusive.query(config))
        : await exclusive.query(config);
      return toResult<R>(result);
    } catch (error) {
      // A transaction cannot retry one statement: the next one to run this text prepares it
      // afresh, and this request answers 503 (see isDatabaseUnavailable).
      if (this.options.prepared && isStalePlan(error)) renewStatement(query.sql);
      if (isDatabaseUnavailable(error)) this.broken = true;
      throw error;
    }
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by this driver.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by this driver');
  }
}

export class PipelinedDriver implements Driver {
  constructor(private readonly options: DriverOptions) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LazyConnection(this.options);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const lazy = connection as LazyConnection;
    lazy.exclusive = await this.options.pool.connect();
    lazy.exclusive.on('error', lazy.onExclusiveError);
    await lazy.executeQuery(CompiledQuery.raw(`${beginCommand(settings)}${this.options.transactionPrelude}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lazy = connection as LazyConnection;
    lazy.exclusive?.removeListener('error', lazy.onExclusiveError);
    lazy.exclusive?.release(lazy.broken);
    lazy.exclusive = undefined;
    lazy.broken = false;
  }

  async destroy(): Promise<void> {
    await Promise.all([this.options.shared?.end(), this.options.pool.end()]);
  }
}
