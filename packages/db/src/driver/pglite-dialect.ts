import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  createQueryId,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  sql,
  type TransactionSettings,
} from 'kysely';
import { beginCommand } from './dialect';
import { statementObserver } from './observe';
import { mayWrite } from './prepared';

/**
 * Kysely over embedded PGlite. PGlite is one Postgres backend with a single session, so the
 * driver hands out that one connection to one caller at a time: a transaction holds it from
 * BEGIN to COMMIT and other queries queue behind it, exactly as they would wait for a pooled
 * connection on a real server.
 */
export class PGliteDriver implements Driver {
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;
  #waiting = 0;
  readonly #connection: PGliteConnection;

  constructor(client: PGlite) {
    this.#connection = new PGliteConnection(client);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#waiting++;
    await previous;
    this.#waiting--;
    this.#release = release;
    return this.#connection;
  }

  /** Whether the session is held (a statement or a transaction), and how many wait for it. */
  use(): { busy: boolean; waiting: number } {
    return { busy: this.#release !== undefined, waiting: this.#waiting };
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(beginCommand(settings)));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await connection.executeQuery(savepointCommand('savepoint', name, compile));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await connection.executeQuery(savepointCommand('rollback to savepoint', name, compile));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await connection.executeQuery(savepointCommand('release savepoint', name, compile));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    await this.#queue;
  }
}

type Compile = QueryCompiler['compileQuery'];

/** The name goes through the compiler as an identifier (quoted and escaped), as in Kysely's PostgresDriver. */
function savepointCommand(command: string, name: string, compile: Compile): CompiledQuery {
  return compile(sql`${sql.raw(command)} ${sql.id(name)}`.toOperationNode(), createQueryId());
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const observe = statementObserver;
    const result = observe
      ? await observe(compiledQuery.sql, 'embedded', () => this.run<R>(compiledQuery))
      : await this.run<R>(compiledQuery);
    const kind = compiledQuery.query.kind;
    // Written-out statements (runSql) are raw nodes: whether they change data is read from the text.
    const changes =
      kind === 'InsertQueryNode' ||
      kind === 'UpdateQueryNode' ||
      kind === 'DeleteQueryNode' ||
      (kind === 'RawNode' && mayWrite(compiledQuery.sql));
    return {
      rows: result.rows,
      ...(changes && result.affectedRows !== undefined
        ? { numAffectedRows: BigInt(result.affectedRows) }
        : {}),
    };
  }

  private run<R>(compiledQuery: CompiledQuery) {
    return this.client.query<R>(compiledQuery.sql, [...compiledQuery.parameters], { rowMode: 'object' });
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by this driver.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not support streaming');
  }
}
