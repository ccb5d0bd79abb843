import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';
import { type ReleaseMigration, migrations as releaseMigrations } from './migrations';

export type { ReleaseMigration };

export interface MigrationReport {
  /** Migrations this run applied. */
  applied: string[];
  /** Newer, additive migrations already in the database that this release does not know. */
  ahead: string[];
}

/** Refused start-up: the database and this release do not fit together. One line, says what to do. */
export class MigrationMismatchError extends Error {
  override name = 'MigrationMismatchError';
}

const MARKS = 'migration_compatibility';

/**
 * Applies pending migrations. Kysely's migrator holds a PostgreSQL advisory lock (session-level:
 * `db` must be a direct connection, never a pooler) and runs all pending migrations in one
 * transaction, so instances started together migrate exactly once, and a migration that fails
 * half-way leaves nothing behind. A database ahead of this release by additive migrations is
 * left as it is (the release one behind during a rolling deploy); anything else it refuses.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  migrations: Record<string, ReleaseMigration> = releaseMigrations,
): Promise<MigrationReport> {
  const state = await readState(db, migrations);
  if (state.unknown.length > 0) return assertAheadCompatibly(state);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => markAdditive(migrations) } });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    // A newer release may have migrated between the read above and the lock.
    const now = await readState(db, migrations);
    if (now.unknown.length > 0) return assertAheadCompatibly(now);
    const failed =
      result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'before any migration ran';
    throw new Error(`migration ${failed} failed and was rolled back`, { cause: result.error });
  }
  return { applied: (result.results ?? []).map((r) => r.migrationName), ahead: [] };
}

/** For instances started with MIGRATE_ON_START=false: checks, changes nothing. */
export async function checkMigrations(
  db: Kysely<any>,
  migrations: Record<string, ReleaseMigration> = releaseMigrations,
): Promise<MigrationReport> {
  const state = await readState(db, migrations);
  if (state.unknown.length > 0) return assertAheadCompatibly(state);
  if (state.pending.length > 0) {
    throw new MigrationMismatchError(
      `the database lacks ${state.pending.length} migration(s) of this release (${state.pending.join(', ')}): run \`pnpm migrate\`, or start with MIGRATE_ON_START=true`,
    );
  }
  return { applied: [], ahead: [] };
}

interface State {
  pending: string[];
  unknown: string[];
  additive: Set<string>;
}

async function readState(db: Kysely<any>, migrations: Record<string, ReleaseMigration>): Promise<State> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
     where table_schema = current_schema() and table_name in ('kysely_migration', ${MARKS})`.execute(db);
  const present = new Set(tables.rows.map((r) => r.name));
  const executed = present.has('kysely_migration')
    ? (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name)
    : [];
  const additive = present.has(MARKS)
    ? (await sql<{ name: string }>`select name from ${sql.table(MARKS)} where additive`.execute(db)).rows.map(
        (r) => r.name,
      )
    : [];
  const known = Object.keys(migrations);
  return {
    pending: known.filter((name) => !executed.includes(name)).sort(),
    unknown: executed.filter((name) => !(name in migrations)).sort(),
    additive: new Set(additive),
  };
}

function assertAheadCompatibly(state: State): MigrationReport {
  const breaking = state.unknown.filter((name) => !state.additive.has(name));
  if (breaking.length > 0) {
    throw new MigrationMismatchError(
      `the database has migration(s) ${breaking.join(', ')}, which this release does not know and which are not marked additive: deploy the release that has them`,
    );
  }
  if (state.pending.length > 0) {
    throw new MigrationMismatchError(
      `the database has newer migrations (${state.unknown.join(', ')}) but lacks this release's ${state.pending.join(', ')}: deploy the newest release and run \`pnpm migrate\``,
    );
  }
  return { applied: [], ahead: state.unknown };
}

/** Each migration records, in its own transaction, whether it is additive. */
function markAdditive(migrations: Record<string, ReleaseMigration>): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(migrations).map(([name, migration]) => [
      name,
      {
        ...migration,
        async up(db: Kysely<any>) {
          await migration.up(db);
          await sql`create table if not exists ${sql.table(MARKS)} (
            name text primary key, additive boolean not null)`.execute(db);
          await sql`insert into ${sql.table(MARKS)} (name, additive)
            values (${name}, ${migration.additive === true})
            on conflict (name) do update set additive = excluded.additive`.execute(db);
        },
      },
    ]),
  );
}
