import {
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type TransactionSettings,
} from 'kysely';

/** The `begin` that opens a transaction with Kysely's settings (isolation level, access mode). */
export function beginCommand(settings: TransactionSettings): string {
  const modes = [
    settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '',
    settings.accessMode ?? '',
  ].filter(Boolean);
  return `begin${modes.length ? ` ${modes.join(' ')}` : ''}`;
}

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
