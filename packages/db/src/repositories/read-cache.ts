import type { Db } from '../schema';

/**
 * A value read from the database and reused by a process for `ttlMs`, per database handle (a
 * failed read is forgotten at once). `get(database, via)` reads through `via` (a transaction of
 * `database`, whose own connection may be the only one free) and caches for `database`.
 */
export function readCache<T>(ttlMs: number, read: (via: Db) => Promise<T>) {
  const known = new WeakMap<Db, { at: number; value: Promise<T> }>();
  return {
    get(database: Db, via: Db = database): Promise<T> {
      const entry = known.get(database);
      if (entry && Date.now() - entry.at < ttlMs) return entry.value;
      const value = read(via);
      known.set(database, { at: Date.now(), value });
      value.catch(() => known.delete(database));
      return value;
    },
    forget(database: Db): void {
      known.delete(database);
    },
  };
}
