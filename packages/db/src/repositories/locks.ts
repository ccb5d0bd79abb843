import { sql } from 'kysely';
import type { Db } from '../schema';

/**
 * Takes a transaction-scoped PostgreSQL advisory lock named by `key` (`db` must be a
 * transaction): concurrent holders of the same key queue until the first one commits.
 */
export async function advisoryXactLock(db: Db, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
}
