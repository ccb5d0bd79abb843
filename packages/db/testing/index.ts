import { sql } from 'kysely';
import { createDatabase, type Database } from '../src/client';
import { uuidv7 } from '../src/ids';
import type { NewSong } from '../src/repositories/songs';
import type { Db } from '../src/schema';
import { dropStaleDatabases, testDatabaseName, testServer, withAdmin, withDatabase } from './server';
import { providedSnapshot, readDump } from './snapshot';

export { type TestServer, testServer, withDatabase } from './server';

export interface TestDatabase extends Database {
  /** The URL of this test's own database (PostgreSQL only), for a second API instance. */
  url: string | undefined;
  /** The server's own URL for this database (differs from `url` behind a pooler). */
  directUrl: string | undefined;
  pooler: 'none' | 'transaction';
}

/**
 * A fresh database for one test file, migrated unless `migrate: false`: its own database on the
 * PostgreSQL server named by TEST_DATABASE_URL when that is set (see testServer), otherwise an
 * in-memory embedded one. Under the vitest global setup (testing/global-setup.ts) it is a copy
 * of the run's one migrated database (or, unmigrated, of an empty one); without it, it is made
 * and migrated here. `close()` drops it again.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  const server = testServer();
  if (!server) {
    const snapshot = await providedSnapshot('embedded');
    const file = snapshot && (migrate ? snapshot.migratedFile : snapshot.emptyFile);
    const database = await createDatabase(file ? { loadDataDir: await readDump(file) } : {});
    if (migrate && !snapshot) await database.migrate();
    return { ...database, url: undefined, directUrl: undefined, pooler: 'none' };
  }

  // Unmigrated databases stay plain `create database` ones: the migration tests start from nothing.
  const template = migrate ? (await providedSnapshot('postgres'))?.template : undefined;
  const name = testDatabaseName();
  await withAdmin(server.directUrl, async (admin) => {
    await dropStaleDatabases(admin);
    await admin.query(
      template ? `create database "${name}" template "${template}"` : `create database "${name}"`,
    );
  });
  const url = withDatabase(server.url, name);
  const directUrl = withDatabase(server.directUrl, name);
  const database = await createDatabase({
    databaseUrl: url,
    directUrl,
    pooler: server.pooler,
    poolMax: 6,
  });
  if (migrate && !template) await database.migrate();
  return {
    ...database,
    url,
    directUrl,
    pooler: server.pooler,
    close: async () => {
      await database.close();
      await withAdmin(server.directUrl, (admin) =>
        admin.query(`drop database if exists "${name}" with (force)`),
      );
    },
  };
}

/** A new song row with a fresh id: the title, and any of the optional columns given. */
export function songRow(title: string, fields: Partial<Omit<NewSong, 'id' | 'title'>> = {}): NewSong {
  return {
    id: uuidv7(),
    title,
    album: null,
    genre: null,
    duration: 60,
    release_year: null,
    isrc: null,
    external_id: null,
    ...fields,
  };
}

/** Where `backdate` moves a row's updated_at: long before any test runs. */
export const LONG_AGO = new Date('2020-01-01T00:00:00Z');

/**
 * Moves the row's stored updated_at to LONG_AGO: a write then visibly moves it (no clock tick
 * needed), and a write skipped because it changes nothing leaves it there to the microsecond.
 */
export async function backdate(
  db: Db,
  table: 'users' | 'artists' | 'songs' | 'playlists',
  id: string,
): Promise<void> {
  await db.updateTable(table).set({ updated_at: LONG_AGO }).where('id', '=', id).execute();
}

/** Moves audit events `seconds` into the past (events are never updated otherwise). */
export async function ageAuditEvents(db: Db, ids: readonly string[], seconds: number): Promise<void> {
  await sql`update audit_events set at = at - make_interval(secs => ${seconds})
    where id = any(${[...ids]}::uuid[])`.execute(db);
}
