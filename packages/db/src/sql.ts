import { CompiledQuery, type QueryResult } from 'kysely';
import type { Db } from './schema';

type Runner = <R>(text: string, values: readonly unknown[]) => Promise<QueryResult<R>>;

/** Databases whose single statements can skip Kysely's connection handling (client.ts registers them). */
const direct = new WeakMap<Db, Runner>();

export function registerDirectStatements(db: Db, run: Runner): void {
  direct.set(db, run);
}

/**
 * A statement written out in SQL, for the few on hot paths (the session check of every
 * authenticated request, the song read, the sign-in's read and write, the row counts of list
 * totals). On a PostgreSQL server it goes straight to the driver's
 * single-statement path: Kysely's executor would otherwise acquire and release a connection
 * object around it, about ten promise hops a statement on the hottest path there is. A
 * transaction is a Kysely instance of its own and is never registered, so its statements go
 * through Kysely on the transaction's connection; so does everything on the embedded database.
 */
export function runSql<R>(db: Db, text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
  const run = direct.get(db);
  return run ? run<R>(text, values) : db.executeQuery<R>(CompiledQuery.raw(text, values as unknown[]));
}
