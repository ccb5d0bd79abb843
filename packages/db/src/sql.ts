import { type Compilable, CompiledQuery, DummyDriver, Kysely, type QueryResult, sql } from 'kysely';
import { postgresDialect } from './driver/dialect';
import type { Database, Db } from './schema';

type Runner = <R>(text: string, values: readonly unknown[]) => Promise<QueryResult<R>>;

/** Databases whose single statements can skip Kysely's connection handling (client.ts registers them). */
const direct = new WeakMap<Db, Runner>();

export function registerDirectStatements(db: Db, run: Runner): void {
  direct.set(db, run);
}

/**
 * Runs one compiled statement. On a PostgreSQL server it goes straight to the driver's
 * single-statement path: Kysely's executor would otherwise acquire and release a connection
 * object around it, about ten promise hops a statement on the hottest path there is. A
 * transaction is a Kysely instance of its own and is never registered, so its statements go
 * through Kysely on the transaction's connection; so does everything on the embedded database.
 */
export function runSql<R>(db: Db, text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
  const run = direct.get(db);
  return run ? run<R>(text, values) : db.executeQuery<R>(CompiledQuery.raw(text, values as unknown[]));
}

/** A Kysely that only compiles: statements are built with it once, when their module loads. */
const compiler = new Kysely<Database>({ dialect: postgresDialect(() => new DummyDriver()) });

/** A statement compiled once from Kysely; each run only fills in its parameters. */
export interface Statement<P, R> {
  run(db: Db, params: P): Promise<QueryResult<R>>;
}

/** SQL on the database's clock: `now()` moved by a number of seconds (a parameter). */
export const secondsFromNow = (seconds: number) => sql<Date>`now() + make_interval(secs => ${seconds})`;
export const secondsAgo = (seconds: number) => sql<Date>`now() - make_interval(secs => ${seconds})`;

/** Stands for a named parameter while a statement is compiled; never sent. */
const MARK = '\u0000statement-parameter:';

/**
 * A statement for a hot path (the session check of every authenticated request, the song
 * read, the sign-in's read and writes, the row counts of list totals), and the housekeeping
 * that shares their tables. It is built with the query builder, so its tables, columns and
 * result type are checked against the schema like any other query; but it is built and
 * compiled once, not per request (building and compiling per call was ~15% of an
 * authenticated request's CPU). `build` receives, in place of each parameter, a marker that
 * the compiled text's placeholders are then mapped back from; literals the builder
 * parameterized on its own stay as they were.
 */
export function statement<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, params: P) => Compilable<R>,
): Statement<P, R> {
  const handedOut = new Set<string>();
  const markers = new Proxy(
    {},
    {
      get: (_, name) => {
        handedOut.add(String(name));
        return `${MARK}${String(name)}`;
      },
    },
  ) as P;
  const { sql: text, parameters } = build(compiler, markers).compile();
  // A marker is only ever a whole parameter: one spliced into the text (an identifier, a raw
  // fragment) or into a longer value (a LIKE pattern) would silently send something else.
  if (text.includes(MARK)) throw new Error(`A statement parameter was compiled into the SQL text: ${text}`);
  const slots = parameters.map((value): ((params: P) => unknown) => {
    if (typeof value !== 'string' || !value.includes(MARK)) return () => value;
    const name = value.slice(MARK.length);
    if (!value.startsWith(MARK) || !handedOut.has(name)) {
      throw new Error(`A statement parameter was used inside another value: ${JSON.stringify(value)}`);
    }
    return (params) => {
      if (!(name in params)) throw new Error(`Statement parameter '${name}' is missing`);
      return params[name];
    };
  });
  return {
    run: (db, params) => {
      let values: unknown[];
      try {
        values = slots.map((slot) => slot(params));
      } catch (error) {
        return Promise.reject(error);
      }
      return runSql<R>(db, text, values);
    },
  };
}
