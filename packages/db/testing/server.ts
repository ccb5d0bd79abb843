import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Every database the tests make on a server is named with it, so stale ones can be found. */
export const PREFIX = 'music_test_';
const STALE_AFTER_MS = 2 * 60 * 60 * 1000;

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

/** A new database name: the prefix, then the time (what the stale clean-up reads), then `tag`. */
export function testDatabaseName(tag = ''): string {
  return `${PREFIX}${Date.now()}_${tag}${randomBytes(4).toString('hex')}`;
}

export async function withAdmin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Databases left behind by runs that crashed before cleaning up (their names carry the time). */
export async function dropStaleDatabases(admin: pg.Client): Promise<void> {
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
