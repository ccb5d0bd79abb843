import { uuidv7 } from '@music/db';
import { backdate } from '@music/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';
import { etagOf } from '../../etag';

const h = await createRouterHarness();
afterAll(() => h.close());

/** Moves the artist's updatedAt into the past, so any write would visibly move it. */
async function age(artistId: string) {
  await backdate(h.database.db, 'artists', artistId);
  return h.caller(await h.makeActor()).artists.get({ artistId });
}

describe('artist writes with If-Match', () => {
  it('writes when the tag is current or `*`, refuses a stale or weak tag with 412 and changes nothing', async () => {
    const admin = await h.makeActor('admin');
    const artist = await h.caller(admin).artists.create({ name: 'Tagged', bio: 'one' });
    const current = etagOf(artist);

    const replaced = await h.callerIfMatch(admin, [current]).artists.replace({
      artistId: artist.id,
      name: 'Retagged',
    });
    expect(replaced).toMatchObject({ name: 'Retagged', bio: null });

    // `current` names the artist as it was before the PUT.
    for (const stale of [[current], [`W/${etagOf(replaced)}`]]) {
      expect(
        await appCode(h.callerIfMatch(admin, stale).artists.update({ artistId: artist.id, name: 'Lost' })),
      ).toBe('PRECONDITION_FAILED');
      expect(
        await appCode(h.callerIfMatch(admin, stale).artists.replace({ artistId: artist.id, name: 'Lost' })),
      ).toBe('PRECONDITION_FAILED');
      expect(await appCode(h.callerIfMatch(admin, stale).artists.delete({ artistId: artist.id }))).toBe(
        'PRECONDITION_FAILED',
      );
    }
    expect(await h.caller(admin).artists.get({ artistId: artist.id })).toEqual(replaced);

    // One of several tags matching is enough.
    const patched = await h.callerIfMatch(admin, [current, etagOf(replaced)]).artists.update({
      artistId: artist.id,
      bio: 'two',
    });
    expect(patched.bio).toBe('two');
    expect(
      (await h.callerIfMatch(admin, '*').artists.update({ artistId: artist.id, bio: 'three' })).bio,
    ).toBe('three');
    await h.callerIfMatch(admin, '*').artists.delete({ artistId: artist.id });
    expect(await appCode(h.caller(admin).artists.get({ artistId: artist.id }))).toBe('NOT_FOUND');
  });

  it('answers 404 and 403 before 412', async () => {
    const admin = await h.makeActor('admin');
    const listener = await h.makeActor('user');
    const artist = await h.caller(admin).artists.create({ name: 'Guarded' });
    expect(await appCode(h.callerIfMatch(admin, ['"stale"']).artists.delete({ artistId: uuidv7() }))).toBe(
      'NOT_FOUND',
    );
    expect(
      await appCode(h.callerIfMatch(listener, ['"stale"']).artists.delete({ artistId: artist.id })),
    ).toBe('FORBIDDEN');
    expect(
      await appCode(
        h.callerIfMatch(listener, ['"stale"']).artists.update({ artistId: artist.id, name: 'x' }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe('artist writes that change nothing', () => {
  it('leave updatedAt and the ETag as they were; a real change moves them', async () => {
    const admin = await h.makeActor('admin');
    const manager = await h.makeActor('artist');
    const made = await h
      .caller(admin)
      .artists.create({ name: 'Still', bio: 'same', userId: manager.user.id });
    const before = await age(made.id);
    expect(before.updatedAt).toBe('2020-01-01T00:00:00Z');
    const calls = [
      h.caller(admin).artists.update({ artistId: made.id }),
      h
        .caller(admin)
        .artists.update({ artistId: made.id, name: 'Still', bio: 'same', userId: manager.user.id }),
      h
        .caller(admin)
        .artists.replace({ artistId: made.id, name: ' Still ', bio: 'same', userId: manager.user.id }),
      // A manager's PUT without userId keeps the link: nothing changes either.
      h.caller(manager).artists.replace({ artistId: made.id, name: 'Still', bio: 'same' }),
    ];
    for (const call of calls) {
      const after = await call;
      expect(after).toEqual(before);
      expect(etagOf(after)).toBe(etagOf(before));
    }
    const changed = await h.caller(manager).artists.update({ artistId: made.id, bio: 'different' });
    expect(changed.updatedAt).not.toBe(before.updatedAt);
    expect(etagOf(changed)).not.toBe(etagOf(before));
  });
});
