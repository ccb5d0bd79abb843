import { backdate, LONG_AGO } from '@music/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';
import { etagOf } from '../../etag';

/** Writes that change nothing stay invisible; ids are taken in any letter case. */

const h = await createRouterHarness();
afterAll(() => h.close());

const admin = await h.makeActor('admin');
const owner = await h.makeActor('user');
const songIds: string[] = [];
for (let i = 0; i < 3; i++)
  songIds.push((await h.caller(admin).songs.create({ title: `S${i}`, duration: 60 })).id);

/**
 * Sets the playlist's stored updated_at far back and returns a reader of it: a write moves it
 * for sure (no clock tick needed), a skipped one leaves it at LONG_AGO to the microsecond.
 */
async function backdated(id: string) {
  await backdate(h.database.db, 'playlists', id);
  const stored = async () =>
    (
      await h.database.db
        .selectFrom('playlists')
        .select('updated_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).updated_at.getTime();
  return { stored, unchanged: LONG_AGO.getTime() };
}

describe('a PUT that changes nothing', () => {
  it('writes nothing: updatedAt and the ETag stay, with songIds omitted or in the same order', async () => {
    const playlist = await h.caller(owner).playlists.create({
      name: 'Same',
      description: 'd',
      isPublic: true,
      songIds,
    });
    const clock = await backdated(playlist.id);
    const current = await h.caller(owner).playlists.get({ playlistId: playlist.id });
    const fields = { playlistId: playlist.id, name: ' Same ', description: 'd', isPublic: true };
    const omitted = await h.caller(owner).playlists.replace(fields);
    expect(omitted).toEqual(current);
    expect(etagOf(omitted)).toBe(etagOf(current));
    const sameOrder = await h.caller(owner).playlists.replace({ ...fields, songIds: [...songIds] });
    expect(sameOrder).toEqual(current);
    expect(await clock.stored()).toBe(clock.unchanged);
  });

  it('counts omitted description and isPublic as null and false', async () => {
    const playlist = await h.caller(owner).playlists.create({ name: 'Plain' });
    const clock = await backdated(playlist.id);
    const unchanged = await h.caller(owner).playlists.replace({ playlistId: playlist.id, name: 'Plain' });
    expect(unchanged).toMatchObject({
      updatedAt: '2020-01-01T00:00:00Z',
      description: null,
      isPublic: false,
    });
    expect(await clock.stored()).toBe(clock.unchanged);
    const changed = await h
      .caller(owner)
      .playlists.replace({ playlistId: playlist.id, name: 'Plain', isPublic: true });
    expect(changed.isPublic).toBe(true);
    expect(await clock.stored()).toBeGreaterThan(clock.unchanged);
  });

  it('still writes a new order alone, or a field alone, keeping what was not given', async () => {
    const playlist = await h.caller(owner).playlists.create({ name: 'Order', songIds });
    const clock = await backdated(playlist.id);
    const reversed = [...songIds].reverse();
    const reordered = await h
      .caller(owner)
      .playlists.replace({ playlistId: playlist.id, name: 'Order', songIds: reversed });
    expect(reordered.songIds).toEqual(reversed);
    expect(etagOf(reordered)).not.toBe(etagOf(playlist));
    expect(await clock.stored()).toBeGreaterThan(clock.unchanged);
    const again = await backdated(playlist.id);
    const renamed = await h.caller(owner).playlists.replace({ playlistId: playlist.id, name: 'Renamed' });
    expect(renamed).toMatchObject({ name: 'Renamed', songIds: reversed });
    expect(await again.stored()).toBeGreaterThan(again.unchanged);
  });
});

describe('ids in any letter case', () => {
  it('finds, replaces and deletes a playlist named by an upper-case id', async () => {
    const playlist = await h.caller(owner).playlists.create({ name: 'Case' });
    const upper = playlist.id.toUpperCase();
    expect(await h.caller(owner).playlists.get({ playlistId: upper })).toEqual(playlist);
    const replaced = await h.caller(owner).playlists.replace({ playlistId: upper, name: 'CASE' });
    expect(replaced).toMatchObject({ id: playlist.id, name: 'CASE' });
    await h.caller(owner).playlists.delete({ playlistId: upper });
    expect(await appCode(h.caller(owner).playlists.get({ playlistId: playlist.id }))).toBe('NOT_FOUND');
  });

  it('adds and removes songs named in upper case; answers ids lower-case', async () => {
    const playlist = await h.caller(owner).playlists.create({
      name: 'Songs',
      songIds: [songIds[0]!.toUpperCase()],
    });
    expect(playlist.songIds).toEqual([songIds[0]]);
    const upper = playlist.id.toUpperCase();
    await h.caller(owner).playlists.addSong({ playlistId: upper, songId: songIds[1]!.toUpperCase() });
    expect(
      await appCode(
        h.caller(owner).playlists.addSong({ playlistId: upper, songId: songIds[1]!.toUpperCase() }),
      ),
    ).toBe('CONFLICT');
    await h.caller(owner).playlists.removeSong({ playlistId: upper, songId: songIds[0]!.toUpperCase() });
    const row = await h.caller(owner).playlists.get({ playlistId: playlist.id });
    expect(row.songIds).toEqual([songIds[1]]);
  });

  it('takes userId in any case, as a filter and in a body', async () => {
    const mine = await h
      .caller(owner)
      .playlists.create({ name: 'Mine', userId: owner.user.id.toUpperCase() });
    expect(mine.userId).toBe(owner.user.id);
    const listed = await h.caller(owner).playlists.list({ userId: owner.user.id.toUpperCase() });
    expect(listed.data.map((p) => p.id)).toContain(mine.id);
    const forOwner = await h
      .caller(admin)
      .playlists.create({ name: 'Theirs', userId: owner.user.id.toUpperCase() });
    expect(forOwner.userId).toBe(owner.user.id);
  });
});
