import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Database } from './client';

const PREFIX = 'music_test_';
const STALE_AFTER_MS = 2 * 60 * 60 * 1000;

export interface TestDatabase extends Database {
  /** The URL of this test's own database (PostgreSQL only), for a second API instance. */
  url: string | undefined;
}

/**
 * A fresh, migrated database for one test file: its own database on the PostgreSQL server
 * named by TEST_DATABASE_URL when that is set, otherwise an in-memory embedded one.
 * `close()` drops it again.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await createDatabase({});
    await database.migrate();
    return { ...database, url: undefined };
  }

  const name = `${PREFIX}${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withAdmin(serverUrl, async (admin) => {
    await dropStaleDatabases(admin);
    await admin.query(`create database "${name}"`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await createDatabase({ databaseUrl: url.toString(), poolMax: 5 });
  await database.migrate();
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      await withAdmin(serverUrl, (admin) => admin.query(`drop database if exists "${name}" with (force)`));
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
