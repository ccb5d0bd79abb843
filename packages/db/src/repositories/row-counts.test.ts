import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { countRows } from './row-counts';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

async function exact(table: 'songs' | 'artists') {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(
    database.db,
  );
  return rows[0]!.n;
}

describe('row counts', () => {
  it('follow single and bulk inserts and deletes exactly', async () => {
    expect(await countRows(database.db, 'songs')).toBe(await exact('songs'));
    await database.db.insertInto('songs').values({ id: uuidv7(), title: 'One', duration: 60 }).execute();
    await database.db
      .insertInto('songs')
      .values(Array.from({ length: 25 }, (_, i) => ({ id: uuidv7(), title: `Bulk ${i}`, duration: 60 })))
      .execute();
    expect(await countRows(database.db, 'songs')).toBe(await exact('songs'));
    await database.db.deleteFrom('songs').where('title', 'like', 'Bulk 1%').execute();
    expect(await countRows(database.db, 'songs')).toBe(await exact('songs'));
  });

  it('do not count a rolled-back insert', async () => {
    const before = await countRows(database.db, 'artists');
    await database.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('artists').values({ id: uuidv7(), name: 'Ghost' }).execute();
        throw new Error('abort');
      })
      .catch(() => {});
    expect(await countRows(database.db, 'artists')).toBe(before);
    expect(await countRows(database.db, 'artists')).toBe(await exact('artists'));
  });
});
