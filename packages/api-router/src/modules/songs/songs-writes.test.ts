import { uuidv7 } from '@music/db';
import { backdate } from '@music/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';
import { etagOf } from '../../etag';

const h = await createRouterHarness();
afterAll(() => h.close());

describe('song writes with If-Match', () => {
  it('checks the whole representation, artistIds included: a new link makes the old tag stale', async () => {
    const admin = await h.makeActor('admin');
    const artist = await h.caller(admin).artists.create({ name: 'Linker' });
    const song = await h.caller(admin).songs.create({ title: 'Tagged', duration: 60 });
    const tag = etagOf(song);
    await h.caller(admin).artists.linkSong({ artistId: artist.id, songId: song.id });
    const linked = await h.caller(admin).songs.get({ songId: song.id });
    expect(linked.artistIds).toEqual([artist.id]);

    expect(
      await appCode(h.callerIfMatch(admin, [tag]).songs.update({ songId: song.id, title: 'Lost' })),
    ).toBe('PRECONDITION_FAILED');
    expect(await appCode(h.callerIfMatch(admin, [tag]).songs.delete({ songId: song.id }))).toBe(
      'PRECONDITION_FAILED',
    );
    expect(await h.caller(admin).songs.get({ songId: song.id })).toEqual(linked);

    const updated = await h
      .callerIfMatch(admin, [etagOf(linked)])
      .songs.update({ songId: song.id, title: 'Kept' });
    expect(updated).toMatchObject({ title: 'Kept', artistIds: [artist.id] });
    expect(await appCode(h.callerIfMatch(admin, [etagOf(linked)]).songs.delete({ songId: song.id }))).toBe(
      'PRECONDITION_FAILED',
    );
    await h.callerIfMatch(admin, [etagOf(updated)]).songs.delete({ songId: song.id });
    expect(await appCode(h.caller(admin).songs.get({ songId: song.id }))).toBe('NOT_FOUND');
  });

  it('takes `*` for any existing song; 404, 403 and 422 come before 412', async () => {
    const admin = await h.makeActor('admin');
    const listener = await h.makeActor('user');
    const song = await h.caller(admin).songs.create({ title: 'Star', duration: 60 });
    expect((await h.callerIfMatch(admin, '*').songs.update({ songId: song.id, duration: 61 })).duration).toBe(
      61,
    );
    expect(await appCode(h.callerIfMatch(admin, '*').songs.update({ songId: uuidv7(), duration: 62 }))).toBe(
      'NOT_FOUND',
    );
    const stale = ['"stale"'];
    expect(await appCode(h.callerIfMatch(listener, stale).songs.delete({ songId: song.id }))).toBe(
      'FORBIDDEN',
    );
    expect(
      await appCode(h.callerIfMatch(admin, stale).songs.update({ songId: song.id, artistIds: [uuidv7()] })),
    ).toBe('VALIDATION_FAILED');
    await h.callerIfMatch(admin, '*').songs.delete({ songId: song.id });
    expect(await appCode(h.caller(admin).songs.get({ songId: song.id }))).toBe('NOT_FOUND');
  });
});

describe('song writes that change nothing', () => {
  it('leave updatedAt and the ETag as they were, the same artists in the same order included', async () => {
    const admin = await h.makeActor('admin');
    const first = await h.caller(admin).artists.create({ name: 'First' });
    const second = await h.caller(admin).artists.create({ name: 'Second' });
    const fields = { title: 'Same', album: 'Album', genre: 'Pop', duration: 90, releaseYear: 2001 };
    const made = await h.caller(admin).songs.create({ ...fields, artistIds: [first.id, second.id] });
    await backdate(h.database.db, 'songs', made.id);
    const before = await h.caller(admin).songs.get({ songId: made.id });
    expect(before.updatedAt).toBe('2020-01-01T00:00:00Z');

    for (const patch of [{}, fields, { ...fields, artistIds: [first.id, second.id] }, { title: ' Same ' }]) {
      const after = await h.caller(admin).songs.update({ songId: made.id, ...patch });
      expect(after).toEqual(before);
      expect(etagOf(after)).toBe(etagOf(before));
    }
    // The same artists in another order is a change.
    const reordered = await h
      .caller(admin)
      .songs.update({ songId: made.id, artistIds: [second.id, first.id] });
    expect(reordered.artistIds).toEqual([second.id, first.id]);
    expect(reordered.updatedAt).not.toBe(before.updatedAt);
  });
});
