import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';
import { pageMode } from '../../schemas';

/** `sort` on GET /playlists (name, createdAt; `-` descending; ties by id). */

const h = await createRouterHarness();
afterAll(() => h.close());

const admin = await h.makeActor('admin');
const owner = await h.makeActor('user');
const other = await h.makeActor('user');

const make = (name: string, actor = owner, isPublic = false) =>
  h.caller(actor).playlists.create({ name, isPublic });

// Four playlists: two share a name, two share a creation instant (set below), so both sort
// keys need the id to break ties.
const zulu = await make('Zulu');
const alpha1 = await make('Alpha');
const alpha2 = await make('Alpha');
const mike = await make('Mike');
const sameInstant = new Date('2020-01-01T00:00:00.123Z');
await h.database.db
  .updateTable('playlists')
  // created_at is read-only in the schema's types; the test forges a tie on purpose.
  .set({ created_at: sameInstant } as never)
  .where('id', 'in', [zulu.id, mike.id])
  .execute();
// In created order, zulu and mike tie on createdAt (earliest of all), ids break it.
const [tiedFirst, tiedSecond] = [zulu, mike].sort((a, b) => (a.id < b.id ? -1 : 1));

const ids = async (sort?: string, actor = owner) =>
  (await h.caller(actor).playlists.list(sort === undefined ? {} : { sort })).data.map((p) => p.id);

describe('GET /playlists?sort', () => {
  it('is oldest first, then id, without sort (as before)', async () => {
    expect(await ids()).toEqual([tiedFirst!.id, tiedSecond!.id, alpha1.id, alpha2.id]);
    expect(await ids('createdAt')).toEqual(await ids());
  });

  it('sorts by name, ties broken by id ascending in both directions', async () => {
    const [a, b] = [alpha1, alpha2].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(await ids('name')).toEqual([a!.id, b!.id, mike.id, zulu.id]);
    expect(await ids('-name')).toEqual([zulu.id, mike.id, a!.id, b!.id]);
  });

  it('sorts newest first with -createdAt, ties still by id ascending', async () => {
    expect(await ids('-createdAt')).toEqual([alpha2.id, alpha1.id, tiedFirst!.id, tiedSecond!.id]);
  });

  it('combines keys: name, then newest first', async () => {
    expect(await ids('name,-createdAt')).toEqual([alpha2.id, alpha1.id, mike.id, zulu.id]);
  });

  it('keeps the filters and the total, and pages in the sorted order', async () => {
    const shared = await make('Shared', other, true);
    const page = await h
      .caller(owner)
      .playlists.list({ visibility: 'public', userId: other.user.id, sort: '-name' });
    expect(page).toMatchObject({ data: [shared], pagination: { total: 1 } });
    const second = await h.caller(owner).playlists.list({ sort: '-name', limit: 1, page: 2 });
    expect(second.data.map((p) => p.id)).toEqual([mike.id]);
    expect(pageMode(second.pagination).total).toBe(4);
    const adminView = await h.caller(admin).playlists.list({ userId: owner.user.id, sort: '-name' });
    expect(adminView.data.map((p) => p.id)).toEqual(await ids('-name'));
  });

  it('refuses unknown and repeated fields', async () => {
    for (const sort of ['title', 'name,name', '-', 'name,', '+name', 'songCount']) {
      // A failed query parameter: the REST edge answers it with 400.
      expect(await appCode(h.caller(owner).playlists.list({ sort })), sort).toBe('VALIDATION_FAILED');
    }
  });

  it('does not apply to a playlist’s songs, which keep their playlist order', async () => {
    const songs = [];
    for (const title of ['c', 'a', 'b'])
      songs.push(await h.caller(admin).songs.create({ title, duration: 5 }));
    const playlist = await h
      .caller(owner)
      .playlists.create({ name: 'Order', songIds: songs.map((s) => s.id) });
    const listed = await h.caller(owner).playlists.songs({ playlistId: playlist.id });
    expect(listed.data.map((s) => s.title)).toEqual(['c', 'a', 'b']);
    expect(
      await appCode(
        // @ts-expect-error: the sub-collection has no sort parameter.
        h.caller(owner).playlists.songs({ playlistId: playlist.id, sort: 'title' }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});
