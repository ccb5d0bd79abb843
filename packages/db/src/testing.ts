import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Database } from './client';
import { uuidv7 } from './ids';
import type { NewSong } from './repositories/songs';
import type { Db } from './schema';

const PREFIX = 'music_test_';
const STALE_AFTER_MS = 2 * 60 * 60 * 1000;

export interface TestDatabase extends Database {
  /** The URL of this test's own database (PostgreSQL only), for a second API instance. */
  url: string | undefined;
  /** The server's own URL for this database (differs from `url` behind a pooler). */
  directUrl: string | undefined;
  pooler: 'none' | 'transaction';
}

/**
 * How tests reach a PostgreSQL server: TEST_DATABASE_URL, or, with
 * TEST_DATABASE_POOLER=transaction, TEST_DATABASE_URL naming a transaction-mode pooler in front
 * of the server named by TEST_DATABASE_DIRECT_URL (databases are created and dropped there, and
 * migrations run there; everything else goes through the pooler).
 */
export interface TestServer {
  url: string;
  directUrl: string;
  pooler: 'none' | 'transaction';
}

export function testServer(): TestServer | undefined {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return undefined;
  const pooler = process.env.TEST_DATABASE_POOLER === 'transaction' ? 'transaction' : 'none';
  const directUrl = process.env.TEST_DATABASE_DIRECT_URL ?? url;
  if (pooler === 'transaction' && !process.env.TEST_DATABASE_DIRECT_URL) {
    throw new Error('TEST_DATABASE_POOLER=transaction needs TEST_DATABASE_DIRECT_URL (the server behind it)');
  }
  return { url, directUrl, pooler };
}

/** `url` with its database name replaced. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * A fresh, migrated database for one test file: its own database on the PostgreSQL server
 * named by TEST_DATABASE_URL when that is set (see testServer), otherwise an in-memory embedded
 * one. `close()` drops it again.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  const server = testServer();
  if (!server) {
    const database = await createDatabase({});
    if (migrate) await database.migrate();
    return { ...database, url: undefined, directUrl: undefined, pooler: 'none' };
  }

  const name = `${PREFIX}${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withAdmin(server.directUrl, async (admin) => {
    await dropStaleDatabases(admin);
    await admin.query(`create database "${name}"`);
  });
  const url = withDatabase(server.url, name);
  const directUrl = withDatabase(server.directUrl, name);
  const database = await createDatabase({
    databaseUrl: url,
    directUrl,
    pooler: server.pooler,
    poolMax: 6,
  });
  if (migrate) await database.migrate();
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

async function withAdmin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Databases left behind by runs that crashed before cleaning up (their names carry the time). */
async function dropStaleDatabases(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname like '${PREFIX}%'`,
  );
  for (const { datname } of rows) {
    const created = Number(datname.slice(PREFIX.length).split('_')[0]);
    if (Number.isFinite(created) && Date.now() - created > STALE_AFTER_MS) {
      await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
    }
  }
}

/** A new song row with a fresh id: the title, and any of the optional columns given. */
export function songRow(title: string, fields: Partial<Omit<NewSong, 'id' | 'title'>> = {}): NewSong {
  return { id: uuidv7(), title, album: null, genre: null, duration: 60, release_year: null, ...fields };
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
