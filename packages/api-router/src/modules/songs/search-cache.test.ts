import {
  createDatabase,
  type Database,
  deleteArtist,
  deleteSong,
  insertArtist,
  insertSong,
  setSongArtists,
  updateArtist,
  updateSong,
  uuidv7,
} from '@music/db';
import { createTestDatabase, songRow, type TestDatabase } from '@music/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { SongSearchCache } from './search-cache';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

describe('repeated searches', () => {
  it('see every committed change to titles, albums, links, artist names and deletions', async () => {
    const cache = new SongSearchCache(database.db);
    const search = () => cache.search({ search: 'quasar', limit: 10, offset: 0 });
    expect(await search()).toEqual({ ids: [], total: 0 });

    const first = await insertSong(database.db, songRow('Quasar One'));
    expect(await search()).toEqual({ ids: [first.id], total: 1 });
    expect(await search()).toEqual({ ids: [first.id], total: 1 });

    const second = await insertSong(database.db, songRow('Plain'));
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
        const [here, there] = [new SongSearchCache(database.db), new SongSearchCache(other.db)];
        const search = (cache: SongSearchCache) => cache.search({ search: 'magnetar', limit: 10, offset: 0 });
        expect((await search(here)).total).toBe(0);
        expect((await search(there)).total).toBe(0);
        const song = await insertSong(other.db, songRow('Magnetar'));
        expect(await search(here)).toEqual({ ids: [song.id], total: 1 });
        await deleteSong(database.db, song.id);
        expect((await search(there)).total).toBe(0);
      } finally {
        await other.close();
      }
    },
  );

  it('keeps one result per order: the sort is part of what is cached', async () => {
    const cache = new SongSearchCache(database.db);
    const older = await insertSong(database.db, songRow('Blazar B', { duration: 10 }));
    const newer = await insertSong(database.db, songRow('Blazar A', { duration: 20 }));
    const search = (sort?: Array<{ column: 'title' | 'duration'; descending: boolean }>) =>
      cache.search({ search: 'blazar', sort, limit: 10, offset: 0 });
    expect((await search()).ids).toEqual([newer.id, older.id]);
    expect((await search([{ column: 'duration', descending: false }])).ids).toEqual([older.id, newer.id]);
    expect((await search([{ column: 'title', descending: true }])).ids).toEqual([older.id, newer.id]);
    expect((await search([{ column: 'duration', descending: true }])).ids).toEqual([newer.id, older.id]);
    expect((await search()).ids).toEqual([newer.id, older.id]);
    expect(cache.entries).toBe(4);
  });

  it('keeps the most recently used searches, at most its size, and answers the dropped ones afresh', async () => {
    const song = await insertSong(database.db, songRow('Pulsar Drift'));
    const cache = new SongSearchCache(database.db, undefined, 2);
    const search = (term: string) => cache.search({ search: term, limit: 10, offset: 0 });
    await search('pulsar');
    await search('drift');
    await search('pulsar'); // now the most recent: 'drift' is the one to drop
    await search('nothing-like-it');
    expect(cache.entries).toBe(2);
    expect(await search('drift')).toEqual({ ids: [song.id], total: 1 });
    expect(cache.entries).toBe(2);
  });
});
