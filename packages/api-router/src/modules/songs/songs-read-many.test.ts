import { randomBytes } from 'node:crypto';
import { uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness, failureOf } from '../../../testing/index';

/** Reading many at once: `ids` on songs, playlists and users; `expand=artists` on song reads. */

const h = await createRouterHarness();
afterAll(() => h.close());
const admin = await h.makeActor('admin');
const listener = await h.makeActor('user');
const other = await h.makeActor('user');
const tag = () => randomBytes(5).toString('hex');

async function catalogue() {
  const t = tag();
  const [x, y] = [
    await h.caller(admin).artists.create({ name: `${t} x` }),
    await h.caller(admin).artists.create({ name: `${t} y` }),
  ];
  const first = await h.caller(admin).songs.create({ title: `${t} 1`, duration: 1, artistIds: [y.id, x.id] });
  const second = await h.caller(admin).songs.create({ title: `${t} 2`, duration: 1, artistIds: [] });
  return { x, y, first, second };
}

describe('ids', () => {
  it('songs: only the named songs, in the list’s order; unknown ids are absent', async () => {
    const { first, second } = await catalogue();
    const ids = [second.id, first.id.toUpperCase(), uuidv7()].join(',');
    const listed = await h.caller(listener).songs.list({ ids });
    expect(listed).toEqual({ data: [first, second], pagination: { page: 1, limit: 20, total: 2 } });
  });

  it('playlists: own and public ones for a non-admin, all for an admin', async () => {
    const mine = await h.caller(listener).playlists.create({ name: 'mine' });
    const theirsPublic = await h.caller(other).playlists.create({ name: 'public', isPublic: true });
    const theirsPrivate = await h.caller(other).playlists.create({ name: 'private' });
    const ids = [mine.id, theirsPublic.id, theirsPrivate.id, uuidv7()].join(',');
    const seen = await h.caller(listener).playlists.list({ ids });
    expect(seen.data.map((p) => p.id)).toEqual([mine.id, theirsPublic.id]);
    const byAdmin = await h.caller(admin).playlists.list({ ids });
    expect(byAdmin.data.map((p) => p.id)).toEqual([mine.id, theirsPublic.id, theirsPrivate.id]);
    // The other filters still apply.
    const publicOnly = await h.caller(listener).playlists.list({ ids, visibility: 'public' });
    expect(publicOnly.data.map((p) => p.id)).toEqual([theirsPublic.id]);
    const own = await h.caller(listener).playlists.list({ ids, userId: listener.user.id });
    expect(own.data.map((p) => p.id)).toEqual([mine.id]);
  });

  it('users: admins only, as the users list', async () => {
    const ids = [listener.user.id, other.user.id, uuidv7()].join(',');
    const listed = await h.caller(admin).users.list({ ids });
    expect(listed.data.map((u) => u.id).sort()).toEqual([listener.user.id, other.user.id].sort());
    expect(await appCode(h.caller(listener).users.list({ ids }))).toBe('FORBIDDEN');
  });
});

describe('expand=artists', () => {
  it('adds each song’s artists in artistIds order, on the detail and every song list', async () => {
    const { x, y, first, second } = await catalogue();
    const expanded = { ...first, artists: [y, x] };
    expect(await h.caller(listener).songs.get({ songId: first.id, expand: 'artists' })).toEqual(expanded);
    const ids = [first.id, second.id].join(',');
    const listed = await h.caller(listener).songs.list({ ids, expand: 'artists' });
    expect(listed.data).toEqual([expanded, { ...second, artists: [] }]);
    const ofArtist = await h.caller(listener).artists.songs({ artistId: x.id, expand: 'artists' });
    expect(ofArtist.data).toEqual([expanded]);
    const playlist = await h.caller(listener).playlists.create({ name: 'p', songIds: [second.id, first.id] });
    const inPlaylist = await h.caller(listener).playlists.songs({
      playlistId: playlist.id,
      expand: 'artists',
      cursor: '',
    });
    expect(inPlaylist.data).toEqual([{ ...second, artists: [] }, expanded]);
  });

  it('changes nothing without expand', async () => {
    const { first } = await catalogue();
    const read = await h.caller(listener).songs.get({ songId: first.id });
    expect(read).toEqual(first);
    expect(read).not.toHaveProperty('artists');
  });

  it('refuses an unknown expansion with 422 on expand', async () => {
    const { first } = await catalogue();
    for (const expand of ['album', '', 'artists,genre']) {
      const error = await failureOf(h.caller(listener).songs.get({ songId: first.id, expand }));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.errors?.map((e) => e.field)).toEqual(['expand']);
      expect((await failureOf(h.caller(listener).songs.list({ expand }))).errors?.[0]?.field).toBe('expand');
    }
  });
});

describe('cursor mode on the other lists', () => {
  async function walkAll<T extends { id: string }>(
    read: (cursor: string) => Promise<{ data: T[]; pagination: object }>,
  ): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await read(cursor);
      ids.push(...page.data.map((row) => row.id));
      cursor = (page.pagination as { nextCursor: string | null }).nextCursor;
    }
    return ids;
  }

  it('artists, playlists, users, profiles and a playlist’s songs walk as they page', async () => {
    const t = tag();
    for (const n of [3, 1, 2]) await h.caller(admin).artists.create({ name: `${t} ${n}` });
    for (const sort of ['name', '-createdAt']) {
      const paged = await h.caller(listener).artists.list({ search: t, sort });
      const walked = await walkAll((cursor) =>
        h.caller(listener).artists.list({ search: t, sort, cursor, limit: 1 }),
      );
      expect(walked).toEqual(paged.data.map((a) => a.id));
    }
    for (const name of ['b', 'a', 'c']) await h.caller(listener).playlists.create({ name, isPublic: true });
    for (const sort of [undefined, '-name']) {
      const paged = await h.caller(listener).playlists.list({ sort, limit: 100 });
      const walked = await walkAll((cursor) => h.caller(listener).playlists.list({ sort, cursor, limit: 2 }));
      expect(walked).toEqual(paged.data.map((p) => p.id));
    }
    for (const sort of ['-email', 'username']) {
      const paged = await h.caller(admin).users.list({ sort, limit: 100 });
      const walked = await walkAll((cursor) => h.caller(admin).users.list({ sort, cursor, limit: 3 }));
      expect(walked).toEqual(paged.data.map((u) => u.id));
    }
    const profiles = await h.caller(admin).users.profiles({ limit: 100 });
    const walkedProfiles = await walkAll((cursor) => h.caller(admin).users.profiles({ cursor, limit: 2 }));
    expect(walkedProfiles).toEqual(profiles.data.map((p) => p.id));
    const { first, second } = await catalogue();
    const playlist = await h.caller(listener).playlists.create({ name: 'p', songIds: [second.id, first.id] });
    const songs = await walkAll((cursor) =>
      h.caller(listener).playlists.songs({ playlistId: playlist.id, cursor, limit: 1 }),
    );
    expect(songs).toEqual([second.id, first.id]);
  });
});
