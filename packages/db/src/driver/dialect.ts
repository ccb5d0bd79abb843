import {
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';

/**
 * PostgreSQL as Kysely speaks it (its own adapter, compiler and introspector) over a driver of
 * ours: the pipelined one for a server (pg-driver.ts), PGlite's single session for the embedded
 * database (pglite-dialect.ts), or none, for statements only compiled (../sql.ts).
 */
export function postgresDialect(createDriver: () => Driver): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver,
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  };
}
