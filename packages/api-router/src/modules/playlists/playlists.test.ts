import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';

const h = await createRouterHarness();
afterAll(() => h.close());

describe('playlists procedures', () => {
  it('reads public playlists for anyone but writes only for the owner and admins', async () => {
    const owner = await h.makeActor('user');
    const stranger = await h.makeActor('user');
    const admin = await h.makeActor('admin');
    const song = await h.caller(admin).songs.create({ title: 'S', duration: 10 });
    const playlist = await h.caller(owner).playlists.create({ name: 'Open', isPublic: true });
    expect((await h.caller(stranger).playlists.get({ playlistId: playlist.id })).id).toBe(playlist.id);
    expect(
      await appCode(h.caller(stranger).playlists.addSong({ playlistId: playlist.id, songId: song.id })),
    ).toBe('FORBIDDEN');
    expect(
      await appCode(h.caller(stranger).playlists.replace({ playlistId: playlist.id, name: 'Mine' })),
    ).toBe('FORBIDDEN');
    await h.caller(admin).playlists.addSong({ playlistId: playlist.id, songId: song.id });
    expect(
      await appCode(h.caller(owner).playlists.addSong({ playlistId: playlist.id, songId: song.id })),
    ).toBe('CONFLICT');
    const privateOne = await h.caller(owner).playlists.replace({ playlistId: playlist.id, name: 'Closed' });
    expect(privateOne).toMatchObject({ isPublic: false, songIds: [song.id], songCount: 1 });
    expect(await appCode(h.caller(stranger).playlists.get({ playlistId: playlist.id }))).toBe('FORBIDDEN');
  });

  it('lists only the caller’s own playlists for a non-admin', async () => {
    const owner = await h.makeActor('user');
    const stranger = await h.makeActor('user');
    await h.caller(stranger).playlists.create({ name: 'Theirs' });
    const mine = await h.caller(owner).playlists.create({ name: 'Mine' });
    const page = await h.caller(owner).playlists.list({});
    expect(page.data.map((p) => p.id)).toEqual([mine.id]);
    expect(await appCode(h.caller(owner).playlists.list({ userId: stranger.user.id }))).toBe('FORBIDDEN');
  });
});
