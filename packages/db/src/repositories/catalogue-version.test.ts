import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, songRow, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { insertArtist, updateArtist } from './artists';
import { insertSong, readCatalogueVersion, searchSongIds, setSongArtists } from './songs';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

const version = async (db = database.db) => Number(await readCatalogueVersion(db));

describe('catalogue version', () => {
  it('moves once per committed transaction that changes the catalogue, never on a rollback', async () => {
    const before = await version();
    await database.db.transaction().execute(async (trx) => {
      const a = await insertSong(trx, songRow('One'));
      const b = await insertSong(trx, songRow('Two'));
      const artist = await insertArtist(trx, { id: uuidv7(), name: 'Trio', bio: null, user_id: null });
      await setSongArtists(trx, a.id, [artist.id]);
      await setSongArtists(trx, b.id, [artist.id]);
      // Not yet: the bump happens at commit.
      expect(await version(trx)).toBe(before);
    });
    expect(await version()).toBe(before + 1);

    await expect(
      database.db.transaction().execute(async (trx) => {
        await insertSong(trx, songRow('Never'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await version()).toBe(before + 1);

    await sql`select 1 from songs limit 1`.execute(database.db);
    expect(await version()).toBe(before + 1);
  });
  it('lets concurrent catalogue writers all commit (the bump waits only for committing writers)', async () => {
    const before = await version();
    const artist = await insertArtist(database.db, { id: uuidv7(), name: 'Crowd', bio: null, user_id: null });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        database.db.transaction().execute(async (trx) => {
          const song = await insertSong(trx, songRow(`Crowd ${i}`));
          await setSongArtists(trx, song.id, [artist.id]);
          await updateArtist(trx, artist.id, { bio: `written by ${i}` });
        }),
      ),
    );
    expect(await version()).toBe(before + 13);
    expect((await searchSongIds(database.db, { search: 'crowd', limit: 20, offset: 0 })).total).toBe(12);
  });
});
