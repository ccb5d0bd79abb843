import { artists as artistsRepo, type Role, users } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';
import type { Actor } from '../../context';

/**
 * Artist powers (version 1.2): they need the role `artist` now, read from the database, and a
 * song must already be managed before it can be linked to another artist; a non-admin changes
 * only the artists they manage on a song, so co-artists keep each other.
 */
const h = await createRouterHarness();
afterAll(() => h.close());
const admin = await h.makeActor('admin');

/** An artist account managing `count` fresh artists. */
async function artistAccount(count = 1): Promise<{ actor: Actor; artistIds: string[] }> {
  const actor = await h.makeActor('artist');
  const artistIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const artist = await h.caller(admin).artists.create({ name: `Managed ${i}`, userId: actor.user.id });
    artistIds.push(artist.id);
  }
  return { actor, artistIds };
}

const songOf = (artistIds: string[]) =>
  h.caller(admin).songs.create({ title: 'A song', duration: 120, artistIds });

/** The role as the session check would read it on the next request. */
async function withRole(actor: Actor, role: Role): Promise<Actor> {
  await users.updateUser(h.database.db, actor.user.id, { role });
  return { ...actor, user: { ...actor.user, role } };
}

describe('linking a song to an artist', () => {
  it("refuses to link another artist's song to your own artist (the takeover), changing nothing", async () => {
    const thief = await artistAccount();
    const victim = await artistAccount();
    const song = await songOf(victim.artistIds);
    const link = { artistId: thief.artistIds[0]!, songId: song.id };
    expect(await appCode(h.caller(thief.actor).artists.linkSong(link))).toBe('FORBIDDEN');
    expect((await h.caller(admin).songs.get({ songId: song.id })).artistIds).toEqual(victim.artistIds);
    // Nor may a song of nobody be claimed that way; an admin links anything.
    const orphan = await songOf([]);
    expect(await appCode(h.caller(thief.actor).artists.linkSong({ ...link, songId: orphan.id }))).toBe(
      'FORBIDDEN',
    );
    await h.caller(admin).artists.linkSong(link);
    expect((await h.caller(admin).songs.get({ songId: song.id })).artistIds).toEqual([
      ...victim.artistIds,
      thief.artistIds[0],
    ]);
  });

  it('links a song you already manage to another artist you manage, twice without harm', async () => {
    const owner = await artistAccount(2);
    const [first, second] = owner.artistIds as [string, string];
    const song = await songOf([first]);
    await h.caller(owner.actor).artists.linkSong({ artistId: second, songId: song.id });
    await h.caller(owner.actor).artists.linkSong({ artistId: second, songId: song.id });
    expect((await h.caller(admin).songs.get({ songId: song.id })).artistIds).toEqual([first, second]);
    // Linking it to an artist someone else manages is that artist's manager's (or an admin's) call.
    const other = await artistAccount();
    expect(
      await appCode(
        h.caller(owner.actor).artists.linkSong({ artistId: other.artistIds[0]!, songId: song.id }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe("changing a song's artists", () => {
  it('adds and removes only artists you manage; the co-artists stay', async () => {
    const me = await artistAccount(2);
    const coArtist = await artistAccount();
    const [mine, mySecond] = me.artistIds as [string, string];
    const theirs = coArtist.artistIds[0]!;
    const song = await songOf([mine, theirs]);
    const update = (artistIds: string[]) => h.caller(me.actor).songs.update({ songId: song.id, artistIds });

    expect(await appCode(update([mine]))).toBe('FORBIDDEN'); // drops the co-artist
    const outsider = (await artistAccount()).artistIds[0]!;
    expect(await appCode(update([mine, theirs, outsider]))).toBe('FORBIDDEN'); // adds an artist not mine
    expect((await h.caller(admin).songs.get({ songId: song.id })).artistIds).toEqual([mine, theirs]);

    expect((await update([mine, theirs, mySecond])).artistIds).toEqual([mine, theirs, mySecond]);
    expect((await update([theirs, mySecond])).artistIds).toEqual([theirs, mySecond]); // mine goes, by me
    expect((await update([mySecond, theirs])).artistIds).toEqual([mySecond, theirs]); // order only
    // The co-artist keeps the same rights the other way round, and an admin may do anything.
    expect(
      await appCode(h.caller(coArtist.actor).songs.update({ songId: song.id, artistIds: [theirs] })),
    ).toBe('FORBIDDEN');
    expect(
      (await h.caller(admin).songs.update({ songId: song.id, artistIds: [outsider] })).artistIds,
    ).toEqual([outsider]);
  });
});

describe('a demoted artist account', () => {
  it('loses every artist power at once, while its artist link stays', async () => {
    const account = await artistAccount(2);
    const [artistId, second] = account.artistIds as [string, string];
    const song = await songOf([artistId]);
    const demoted = await withRole(account.actor, 'user');
    const as = h.caller(demoted);
    const refusals = {
      'artists.update': () => as.artists.update({ artistId, bio: 'still mine?' }),
      'artists.replace': () => as.artists.replace({ artistId, name: 'Renamed' }),
      'artists.linkSong': () => as.artists.linkSong({ artistId: second, songId: song.id }),
      'artists.unlinkSong': () => as.artists.unlinkSong({ artistId, songId: song.id }),
      'songs.create': () => as.songs.create({ title: 'New', duration: 60, artistIds: [artistId] }),
      'songs.update': () => as.songs.update({ songId: song.id, title: 'Changed' }),
      'songs.delete': () => as.songs.delete({ songId: song.id }),
    };
    for (const [name, call] of Object.entries(refusals))
      expect(await appCode(call()), name).toBe('FORBIDDEN');
    expect(await h.caller(admin).songs.get({ songId: song.id })).toMatchObject({
      title: 'A song',
      artistIds: [artistId],
    });
    expect((await artistsRepo.findArtistById(h.database.db, artistId))?.user_id).toBe(account.actor.user.id);
    // Promoted again: the powers are back (they follow the role and the link, nothing else).
    const restored = await withRole(account.actor, 'artist');
    expect((await h.caller(restored).songs.update({ songId: song.id, title: 'Changed' })).title).toBe(
      'Changed',
    );
  });
});
