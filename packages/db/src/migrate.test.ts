import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/index';
import { MigrationMismatchError, migrateToLatest, type ReleaseMigration } from './migrate';
import { migrations } from './migrations';

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  // In order, one after another: the extra handles first, then the database.
  for (const close of opened.splice(0)) await close();
});

/** An empty database, and a handle on it the way migrations reach it (the server itself). */
async function emptyDatabase(): Promise<{ database: TestDatabase; direct: () => Kysely<any> }> {
  const database = await createTestDatabase({ migrate: false });
  opened.push(() => database.close());
  const direct = () => {
    if (!database.directUrl) return database.db as Kysely<any>;
    const pool = new pg.Pool({ connectionString: database.directUrl, max: 1 });
    // pg-pool's end() resolves before its connections have closed, so the drop of the database
    // (with force) that follows can still end one of them: the pool re-emits that connection's
    // error, an uncaught exception without a listener. Queries report their own errors.
    pool.on('error', () => {});
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    opened.unshift(() => db.destroy());
    return db;
  };
  return { database, direct };
}

/** The error a promise rejects with (the test fails if it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a rejection');
  return outcome;
}

const createTable = (name: string, extra?: () => never): ReleaseMigration => ({
  async up(db) {
    await sql`create table ${sql.table(name)} (id int primary key)`.execute(db);
    extra?.();
  },
});

async function tables(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_name like 'm\\_%' order by 1`.execute(db);
  return rows.map((r) => r.name);
}

describe(`migrations (${process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'embedded'})`, () => {
  it('rolls back every pending migration when one fails half-way, and says which failed and why', async () => {
    const { direct } = await emptyDatabase();
    const db = direct();
    const error = await failure(
      migrateToLatest(db, {
        '0001-m_first': createTable('m_first'),
        '0002-m_second': createTable('m_second', () => {
          throw new Error('disk on fire');
        }),
      }),
    );
    expect(error.message).toBe('migration 0002-m_second failed and was rolled back');
    expect((error.cause as Error).message).toBe('disk on fire');
    expect(await tables(db)).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(db);
    expect(rows[0]?.n).toBe(0);
  });

  it('lets a release one behind start on a database ahead of it by additive migrations only', async () => {
    const { direct } = await emptyDatabase();
    const db = direct();
    const older = { '0001-m_base': createTable('m_base') };
    const newer = { ...older, '0002-m_extra': { ...createTable('m_extra'), additive: true } };
    expect(await migrateToLatest(db, newer)).toEqual({ applied: ['0001-m_base', '0002-m_extra'], ahead: [] });
    expect(await migrateToLatest(db, older)).toEqual({ applied: [], ahead: ['0002-m_extra'] });
    expect(await migrateToLatest(db, newer)).toEqual({ applied: [], ahead: [] });
  });

  it('refuses a release behind a migration that is not additive, in one line that says what to do', async () => {
    const { direct } = await emptyDatabase();
    const db = direct();
    const older = { '0001-m_base': createTable('m_base') };
    await migrateToLatest(db, { ...older, '0002-m_breaking': createTable('m_breaking') });
    const error = await failure(migrateToLatest(db, older));
    expect(error).toBeInstanceOf(MigrationMismatchError);
    expect(error.message).toMatch(/0002-m_breaking, which .* not marked additive: deploy the release/);
    expect(error.message).not.toContain('\n');
  });

  it('migrates exactly once when instances start together', async () => {
    const { direct } = await emptyDatabase();
    const list = { '0001-m_a': createTable('m_a'), '0002-m_b': createTable('m_b') };
    const reports = await Promise.all([direct(), direct(), direct()].map((db) => migrateToLatest(db, list)));
    expect(reports.flatMap((r) => r.applied).sort()).toEqual(['0001-m_a', '0002-m_b']);
    const db = direct();
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(rows.map((r) => r.name)).toEqual(['0001-m_a', '0002-m_b']);
  });

  it('checks without changing anything: pending migrations are refused', async () => {
    const { database } = await emptyDatabase();
    const error = await failure(database.checkMigrations());
    expect(error).toBeInstanceOf(MigrationMismatchError);
    expect(error.message).toMatch(/lacks \d+ migration\(s\) of this release .*pnpm migrate/);
    await database.migrate();
    expect(await database.checkMigrations()).toEqual({ applied: [], ahead: [] });
  });

  it('upgrades a database that holds a catalogue: the search migrations fold what is there', async () => {
    const { direct } = await emptyDatabase();
    const db = direct();
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '2026-11-28'));
    await migrateToLatest(db, before);
    const artist = '018f0000-0000-7000-8000-00000000000a';
    const second = '018f0000-0000-7000-8000-00000000000b';
    const song = '018f0000-0000-7000-8000-000000000001';
    await sql`insert into artists (id, name) values (${artist}, 'Sigur Rós'), (${second}, 'Amiina')`.execute(
      db,
    );
    await sql`insert into songs (id, title, album, duration) values (${song}, 'Hoppípolla', 'Takk…', 268)`.execute(
      db,
    );
    await sql`insert into song_artists (song_id, artist_id, position) values (${song}, ${second}, 1), (${song}, ${artist}, 0)`.execute(
      db,
    );

    expect((await migrateToLatest(db)).applied).toEqual(
      Object.keys(migrations).filter((name) => name >= '2026-11-28'),
    );
    const { rows } = await sql<Record<string, string>>`
      select title_key, album_key, search_words, album_artist_id::text as first from songs`.execute(db);
    expect(rows).toEqual([
      {
        title_key: 'hoppipolla',
        album_key: 'takk',
        search_words: 'hoppipolla takk amiina sigur ros',
        first: artist,
      },
    ]);
    const vocabulary = await sql<{ word: string }>`select word from search_vocabulary order by word`.execute(
      db,
    );
    expect(vocabulary.rows.map((r) => r.word)).toEqual(['amiina', 'hoppipolla', 'ros', 'sigur', 'takk']);
    const starts = await sql<{ kind: string; start: string }>`select kind, start from search_starts`.execute(
      db,
    );
    expect(starts.rows).toEqual([{ kind: 'a', start: 'ros' }]);
  });

  it('keeps the word starts of names current through inserts, renames and deletes', async () => {
    const { direct } = await emptyDatabase();
    const db = direct();
    await migrateToLatest(db);
    const starts = async () =>
      (
        await sql<{
          s: string;
        }>`select kind::text || ':' || start as s from search_starts order by 1`.execute(db)
      ).rows.map((r) => r.s);
    const song = '018f0000-0000-7000-8000-000000000001';
    const other = '018f0000-0000-7000-8000-000000000002';
    const artist = '018f0000-0000-7000-8000-00000000000a';
    await sql`insert into songs (id, title, album, duration) values
      (${song}, 'Endless Love', 'Greatest Hits', 200), (${other}, 'Solo', null, 100)`.execute(db);
    await sql`insert into artists (id, name) values (${artist}, 'Sigur Rós')`.execute(db);
    expect(await starts()).toEqual(['a:ros', 'l:hits', 't:love']);
    await sql`update songs set title = 'Endless Love Song', genre = 'Pop' where id = ${song}`.execute(db);
    await sql`update songs set genre = 'Jazz'`.execute(db);
    await sql`update artists set name = 'Sigur'`.execute(db);
    expect(await starts()).toEqual(['l:hits', 't:love song', 't:song']);
    await sql`delete from songs where id = ${song}`.execute(db);
    expect(await starts()).toEqual([]);
  });
});
