import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';

const h = await createRouterHarness();
afterAll(() => h.close());

describe('songs procedures', () => {
  it('gives an artist account all its artists when artistIds is omitted', async () => {
    const admin = await h.makeActor('admin');
    const account = await h.makeActor('artist');
    const first = await h.caller(admin).artists.create({ name: 'First', userId: account.user.id });
    const second = await h.caller(admin).artists.create({ name: 'Second', userId: account.user.id });
    const song = await h.caller(account).songs.create({ title: 'Ours', duration: 100 });
    expect(song.artistIds).toEqual([first.id, second.id]);
  });

  it('stops a non-admin from taking their own artists off a song, but not an admin', async () => {
    const admin = await h.makeActor('admin');
    const account = await h.makeActor('artist');
    const own = await h.caller(admin).artists.create({ name: 'Own', userId: account.user.id });
    const guest = await h.caller(admin).artists.create({ name: 'Guest' });
    const song = await h
      .caller(account)
      .songs.create({ title: 'Duet', duration: 100, artistIds: [own.id, guest.id] });
    expect(await appCode(h.caller(account).songs.update({ songId: song.id, artistIds: [guest.id] }))).toBe(
      'FORBIDDEN',
    );
    const updated = await h.caller(admin).songs.update({ songId: song.id, artistIds: [guest.id] });
    expect(updated.artistIds).toEqual([guest.id]);
    // No longer linked to any of the song's artists: the account lost its rights on it.
    expect(await appCode(h.caller(account).songs.delete({ songId: song.id }))).toBe('FORBIDDEN');
  });

  it('refuses an artist account whose role was taken away', async () => {
    const admin = await h.makeActor('admin');
    const account = await h.makeActor('artist');
    await h.caller(admin).artists.create({ name: 'Former', userId: account.user.id });
    const demoted = { ...account, user: { ...account.user, role: 'user' as const } };
    expect(await appCode(h.caller(demoted).songs.create({ title: 'x', duration: 1 }))).toBe('FORBIDDEN');
  });
});
