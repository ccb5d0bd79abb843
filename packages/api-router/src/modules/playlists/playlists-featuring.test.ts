import { afterAll, describe, expect, it } from 'vitest';
import { createRouterHarness } from '../../../testing/index';
import { pageMode } from '../../schemas';

/** `artistId` on GET /playlists: the playlists holding a song of the artist. */

const h = await createRouterHarness();
afterAll(() => h.close());

const admin = await h.makeActor('admin');
const owner = await h.makeActor('user');
const other = await h.makeActor('user');

const band = await h.caller(admin).artists.create({ name: 'Featured Band' });
const guest = await h.caller(admin).artists.create({ name: 'Guest Singer' });
const solo = await h.caller(admin).songs.create({ title: 'Solo', duration: 100, artistIds: [band.id] });
const duet = await h
  .caller(admin)
  .songs.create({ title: 'Duet', duration: 100, artistIds: [guest.id, band.id] });
const elsewhere = await h
  .caller(admin)
  .songs.create({ title: 'Other', duration: 100, artistIds: [guest.id] });

const mine = await h.caller(owner).playlists.create({ name: 'Mine, private', songIds: [solo.id] });
const ownOther = await h.caller(owner).playlists.create({ name: 'Mine, without', songIds: [elsewhere.id] });
const theirsPublic = await h
  .caller(other)
  .playlists.create({ name: 'Theirs, public', isPublic: true, songIds: [elsewhere.id, duet.id] });
const theirsPrivate = await h.caller(other).playlists.create({ name: 'Theirs, private', songIds: [solo.id] });

const ids = (page: { data: Array<{ id: string }> }) => page.data.map((p) => p.id).sort();
const sorted = (...list: Array<{ id: string }>) => list.map((p) => p.id).sort();

describe('GET /playlists?artistId', () => {
  it('lists the public playlists featuring the artist, whoever owns them, with their total', async () => {
    const page = await h.caller(owner).playlists.list({ visibility: 'public', artistId: band.id });
    expect(ids(page)).toEqual(sorted(theirsPublic));
    expect(pageMode(page.pagination).total).toBe(1);
  });

  it('keeps a non-admin to their own playlists without visibility=public', async () => {
    const page = await h.caller(owner).playlists.list({ artistId: band.id });
    expect(ids(page)).toEqual(sorted(mine));
    expect(ids(page)).not.toContain(ownOther.id);
  });

  it('gives an admin every playlist featuring the artist, a song they share included', async () => {
    const page = await h.caller(admin).playlists.list({ artistId: band.id });
    expect(ids(page)).toEqual(sorted(mine, theirsPublic, theirsPrivate));
    expect(pageMode(page.pagination).total).toBe(3);
    const guestPage = await h.caller(admin).playlists.list({ artistId: guest.id });
    expect(ids(guestPage)).toEqual(sorted(ownOther, theirsPublic));
  });

  it('pages by cursor through the same playlists', async () => {
    const first = await h.caller(admin).playlists.list({ artistId: band.id, limit: 2, cursor: '' });
    expect(first.data).toHaveLength(2);
    const cursor = (first.pagination as { nextCursor: string | null }).nextCursor;
    expect(cursor).not.toBeNull();
    const second = await h.caller(admin).playlists.list({ artistId: band.id, limit: 2, cursor: cursor! });
    expect(sorted(...first.data, ...second.data)).toEqual(sorted(mine, theirsPublic, theirsPrivate));
  });

  it('finds none for an artist that does not exist', async () => {
    const page = await h.caller(admin).playlists.list({ artistId: '00000000-0000-4000-8000-000000000000' });
    expect(page.data).toEqual([]);
    expect(pageMode(page.pagination).total).toBe(0);
  });
});
