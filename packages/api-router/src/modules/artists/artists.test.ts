import { afterAll, describe, expect, it } from 'vitest';
import { createRouterHarness, failureOf } from '../../../testing/index';

const h = await createRouterHarness();
afterAll(() => h.close());

async function failure(promise: Promise<unknown>): Promise<{ code: string; fields?: string[] }> {
  const error = await failureOf(promise);
  return error.errors ? { code: error.code, fields: error.errors.map((e) => e.field) } : { code: error.code };
}

describe('artists procedures', () => {
  it('keeps a manager’s link on a PUT that omits userId, but an admin’s PUT clears it', async () => {
    const admin = await h.makeActor('admin');
    const manager = await h.makeActor('artist');
    const artist = await h.caller(admin).artists.create({ name: 'Linked', userId: manager.user.id });
    const byManager = await h.caller(manager).artists.replace({ artistId: artist.id, name: 'Still linked' });
    expect(byManager).toMatchObject({ name: 'Still linked', userId: manager.user.id, bio: null });
    const byAdmin = await h.caller(admin).artists.replace({ artistId: artist.id, name: 'Unlinked' });
    expect(byAdmin.userId).toBeNull();
    expect(await failure(h.caller(manager).artists.update({ artistId: artist.id, bio: 'x' }))).toEqual({
      code: 'FORBIDDEN',
    });
  });

  it('only links accounts with the artist role', async () => {
    const admin = await h.makeActor('admin');
    const listener = await h.makeActor('user');
    expect(await failure(h.caller(admin).artists.create({ name: 'x', userId: listener.user.id }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['userId'],
    });
    expect(await failure(h.caller(listener).artists.create({ name: 'x' }))).toEqual({ code: 'FORBIDDEN' });
  });

  it('answers NOT_FOUND before FORBIDDEN for song links, and links idempotently', async () => {
    const admin = await h.makeActor('admin');
    const listener = await h.makeActor('user');
    const artist = await h.caller(admin).artists.create({ name: 'Links' });
    const song = await h.caller(admin).songs.create({ title: 'S', duration: 10 });
    const link = { artistId: artist.id, songId: song.id };
    expect(await failure(h.caller(listener).artists.linkSong({ ...link, songId: 'nope' }))).toEqual({
      code: 'NOT_FOUND',
    });
    expect(await failure(h.caller(listener).artists.linkSong(link))).toEqual({ code: 'FORBIDDEN' });
    await h.caller(admin).artists.linkSong(link);
    await h.caller(admin).artists.linkSong(link);
    expect((await h.caller(listener).songs.get({ songId: song.id })).artistIds).toEqual([artist.id]);
  });
});
