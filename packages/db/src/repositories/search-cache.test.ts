import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../client';
import { uuidv7 } from '../ids';
import { createTestDatabase, type TestDatabase } from '../testing';
import { deleteArtist, insertArtist, updateArtist } from './artists';
import { deleteSong, insertSong, listSongIds, setSongArtists, updateSong } from './songs';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const version = async (db = database.db) =>
  Number((await db.selectFrom('catalogue_version').select('version').executeTakeFirstOrThrow()).version);

const newSong = (title: string) => ({
  id: uuidv7(),
  title,
  album: null,
  genre: null,
  duration: 60,
  release_year: null,
});

describe('catalogue version', () => {
  it('moves once per committed transaction that changes the catalogue, never on a rollback', async () => {
    const before = await version();
    await database.db.transaction().execute(async (trx) => {
      const a = await insertSong(trx, newSong('One'));
      const b = await insertSong(trx, newSong('Two'));
      const artist = await insertArtist(trx, { id: uuidv7(), name: 'Trio', bio: null, user_id: null });
      await setSongArtists(trx, a.id, [artist.id]);
      await setSongArtists(trx, b.id, [artist.id]);
      // Not yet: the bump happens at commit.
      expect(await version(trx)).toBe(before);
    });
    expect(await version()).toBe(before + 1);

    await expect(
      database.db.transaction().execute(async (trx) => {
        await insertSong(trx, newSong('Never'));
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
          const song = await insertSong(trx, newSong(`Crowd ${i}`));
          await setSongArtists(trx, song.id, [artist.id]);
          await updateArtist(trx, artist.id, { bio: `written by ${i}` });
        }),
      ),
    );
    expect(await version()).toBe(before + 13);
    expect((await listSongIds(database.db, { search: 'crowd', limit: 20, offset: 0 })).total).toBe(12);
  });
});

describe('repeated searches', () => {
  it('see every committed change to titles, albums, links, artist names and deletions', async () => {
    const search = async () => listSongIds(database.db, { search: 'quasar', limit: 10, offset: 0 });
    expect(await search()).toEqual({ ids: [], total: 0 });

    const first = await insertSong(database.db, newSong('Quasar One'));
    expect(await search()).toEqual({ ids: [first.id], total: 1 });
    expect(await search()).toEqual({ ids: [first.id], total: 1 });

    const second = await insertSong(database.db, newSong('Plain'));
    const artist = await insertArtist(database.db, {
      id: uuidv7(),
      name: 'Nebula',
      bio: null,
      user_id: null,
    });
    await setSongArtists(database.db, second.id, [artist.id]);
    expect((await search()).total).toBe(1);
    await updateArtist(database.db, artist.id, { name: 'Quasar Band' });
    expect(await search()).toEqual({ ids: [second.id, first.id], total: 2 }); // by title: Plain, Quasar One

    await updateSong(database.db, first.id, { title: 'Pulsar One' });
    expect(await search()).toEqual({ ids: [second.id], total: 1 });
    await deleteArtist(database.db, artist.id);
    expect(await search()).toEqual({ ids: [], total: 0 });
    await updateSong(database.db, second.id, { album: 'quasar nights' });
    expect(await search()).toEqual({ ids: [second.id], total: 1 });
    await deleteSong(database.db, second.id);
    expect(await search()).toEqual({ ids: [], total: 0 });
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'see changes made through another instance on the same database',
    async () => {
      const other: Database = await createDatabase({
        databaseUrl: database.url,
        directUrl: database.directUrl,
        pooler: database.pooler,
        poolMax: 2,
      });
      try {
        const search = (db: Database['db']) => listSongIds(db, { search: 'magnetar', limit: 10, offset: 0 });
        expect((await search(database.db)).total).toBe(0);
        expect((await search(other.db)).total).toBe(0);
        const song = await insertSong(other.db, newSong('Magnetar'));
        expect(await search(database.db)).toEqual({ ids: [song.id], total: 1 });
        await deleteSong(database.db, song.id);
        expect((await search(other.db)).total).toBe(0);
      } finally {
        await other.close();
      }
    },
  );
});
