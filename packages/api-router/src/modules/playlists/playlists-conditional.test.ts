import { uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { type Actor, createContextInner } from '../../context';
import { type EntityTagCondition, etagOf } from '../../etag';
import { appRouter } from '../../router';
import { appCode, createRouterHarness } from '../../testing';
import { createCallerFactory } from '../../trpc';

/**
 * If-Match on the playlist writes (PUT, DELETE, adding and removing a song): checked against the
 * playlist's representation under its row lock, songs and their order included.
 */

const h = await createRouterHarness();
afterAll(() => h.close());

const createCaller = createCallerFactory(appRouter);
/** A caller whose requests carry `If-Match` (what the REST edge puts in the context). */
const withIfMatch = (actor: Actor, ifMatch: EntityTagCondition) =>
  createCaller(
    createContextInner(h.deps, { actor, clientAddress: '127.0.0.1', requestId: uuidv7(), ifMatch }),
  );

const admin = await h.makeActor('admin');
const owner = await h.makeActor('user');
const songIds: string[] = [];
for (let i = 0; i < 4; i++)
  songIds.push((await h.caller(admin).songs.create({ title: `S${i}`, duration: 60 })).id);

async function freshPlaylist(songs = songIds.slice(0, 3)) {
  const playlist = await h.caller(owner).playlists.create({ name: 'Mix', songIds: songs });
  return { playlist, etag: etagOf(playlist) };
}
const read = (playlistId: string) => h.caller(owner).playlists.get({ playlistId });
/** Another client's reorder: the playlist's ETag changes with its order alone. */
const reorder = (playlistId: string, name: string, order: string[]) =>
  h.caller(owner).playlists.replace({ playlistId, name, songIds: order });

describe('the playlist ETag', () => {
  it('changes whenever its songs or their order change, even within one second', async () => {
    const { playlist, etag } = await freshPlaylist();
    const reordered = await reorder(playlist.id, playlist.name, [songIds[2]!, songIds[0]!, songIds[1]!]);
    expect(etagOf(reordered)).not.toBe(etag);
    await h.caller(owner).playlists.addSong({ playlistId: playlist.id, songId: songIds[3]! });
    const added = await read(playlist.id);
    expect(etagOf(added)).not.toBe(etagOf(reordered));
    await h.caller(owner).playlists.removeSong({ playlistId: playlist.id, songId: songIds[3]! });
    const removed = await read(playlist.id);
    expect(removed.songIds).toEqual(reordered.songIds);
    expect(etagOf(removed)).not.toBe(etagOf(added));
  });
});

describe('If-Match on PUT /playlists/{id}', () => {
  it('writes with the current tag or *', async () => {
    const { playlist, etag } = await freshPlaylist();
    const renamed = await withIfMatch(owner, [etag]).playlists.replace({
      playlistId: playlist.id,
      name: 'Two',
    });
    expect(renamed).toMatchObject({ name: 'Two', songIds: playlist.songIds });
    const starred = await withIfMatch(owner, '*').playlists.replace({
      playlistId: playlist.id,
      name: 'Three',
    });
    expect(starred.name).toBe('Three');
    // One of several listed tags is enough.
    const listed = await withIfMatch(owner, ['"other"', etagOf(starred)]).playlists.replace({
      playlistId: playlist.id,
      name: 'Four',
    });
    expect(listed.name).toBe('Four');
  });

  it('answers 412 and changes nothing once another client has reordered', async () => {
    const { playlist, etag } = await freshPlaylist();
    const theirs = await reorder(playlist.id, playlist.name, [songIds[1]!, songIds[0]!, songIds[2]!]);
    const stale = withIfMatch(owner, [etag]).playlists.replace({
      playlistId: playlist.id,
      name: 'Mine',
      songIds: [songIds[0]!],
    });
    expect(await appCode(stale)).toBe('PRECONDITION_FAILED');
    expect(await read(playlist.id)).toEqual(theirs);
  });

  it('refuses a weak tag (If-Match compares strongly)', async () => {
    const { playlist, etag } = await freshPlaylist();
    const weak = withIfMatch(owner, [`W/${etag}`]).playlists.replace({ playlistId: playlist.id, name: 'x' });
    expect(await appCode(weak)).toBe('PRECONDITION_FAILED');
    expect(await read(playlist.id)).toEqual(playlist);
  });

  it('lets exactly one of several concurrent writers with the same tag through', async () => {
    const { playlist, etag } = await freshPlaylist();
    const results = await Promise.all(
      ['A', 'B', 'C', 'D'].map((name) =>
        withIfMatch(owner, [etag])
          .playlists.replace({ playlistId: playlist.id, name })
          .then(
            (written) => written.name,
            () => 'refused',
          ),
      ),
    );
    const winners = results.filter((r) => r !== 'refused');
    expect(winners).toHaveLength(1);
    expect((await read(playlist.id)).name).toBe(winners[0]);
  });

  it('answers 404 before 412 for an unknown playlist, and 403 before 412 for another user’s', async () => {
    expect(
      await appCode(withIfMatch(owner, '*').playlists.replace({ playlistId: uuidv7(), name: 'x' })),
    ).toBe('NOT_FOUND');
    const stranger = await h.makeActor('user');
    const { playlist } = await freshPlaylist();
    expect(
      await appCode(
        withIfMatch(stranger, ['"stale"']).playlists.replace({ playlistId: playlist.id, name: 'x' }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe('If-Match on DELETE /playlists/{id}', () => {
  it('keeps the playlist on a stale tag, deletes on the current one', async () => {
    const { playlist, etag } = await freshPlaylist();
    await h.caller(owner).playlists.addSong({ playlistId: playlist.id, songId: songIds[3]! });
    expect(await appCode(withIfMatch(owner, [etag]).playlists.delete({ playlistId: playlist.id }))).toBe(
      'PRECONDITION_FAILED',
    );
    const current = await read(playlist.id);
    expect(current.songIds).toEqual([...playlist.songIds, songIds[3]]);
    await withIfMatch(owner, [etagOf(current)]).playlists.delete({ playlistId: playlist.id });
    expect(await appCode(read(playlist.id))).toBe('NOT_FOUND');
  });

  it('deletes with *, which an absent playlist does not match', async () => {
    const { playlist } = await freshPlaylist();
    await withIfMatch(owner, '*').playlists.delete({ playlistId: playlist.id });
    expect(await appCode(withIfMatch(owner, '*').playlists.delete({ playlistId: playlist.id }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('If-Match on POST /playlists/{id}/songs', () => {
  it('appends with the current tag or *, refuses a stale one and leaves the songs as they were', async () => {
    const { playlist, etag } = await freshPlaylist(songIds.slice(0, 2));
    const theirs = await reorder(playlist.id, playlist.name, [songIds[1]!, songIds[0]!]);
    const stale = withIfMatch(owner, [etag]).playlists.addSong({
      playlistId: playlist.id,
      songId: songIds[2]!,
    });
    expect(await appCode(stale)).toBe('PRECONDITION_FAILED');
    expect(await read(playlist.id)).toEqual(theirs);
    await withIfMatch(owner, [etagOf(theirs)]).playlists.addSong({
      playlistId: playlist.id,
      songId: songIds[2]!,
    });
    await withIfMatch(owner, '*').playlists.addSong({ playlistId: playlist.id, songId: songIds[3]! });
    expect((await read(playlist.id)).songIds).toEqual([songIds[1], songIds[0], songIds[2], songIds[3]]);
  });

  it('checks the song (422) before the tag, and the tag before a duplicate (409)', async () => {
    const { playlist, etag } = await freshPlaylist(songIds.slice(0, 1));
    const unknownSong = withIfMatch(owner, ['"stale"']).playlists.addSong({
      playlistId: playlist.id,
      songId: uuidv7(),
    });
    expect(await appCode(unknownSong)).toBe('VALIDATION_FAILED');
    const duplicateStale = withIfMatch(owner, ['"stale"']).playlists.addSong({
      playlistId: playlist.id,
      songId: songIds[0]!,
    });
    expect(await appCode(duplicateStale)).toBe('PRECONDITION_FAILED');
    const duplicate = withIfMatch(owner, [etag]).playlists.addSong({
      playlistId: playlist.id,
      songId: songIds[0]!,
    });
    expect(await appCode(duplicate)).toBe('CONFLICT');
  });
});

describe('If-Match on DELETE /playlists/{id}/songs/{songId}', () => {
  it('removes with the current tag or *, refuses a stale one and leaves the songs as they were', async () => {
    const { playlist, etag } = await freshPlaylist();
    const theirs = await reorder(playlist.id, playlist.name, [songIds[2]!, songIds[1]!, songIds[0]!]);
    const stale = withIfMatch(owner, [etag]).playlists.removeSong({
      playlistId: playlist.id,
      songId: songIds[1]!,
    });
    expect(await appCode(stale)).toBe('PRECONDITION_FAILED');
    expect(await read(playlist.id)).toEqual(theirs);
    await withIfMatch(owner, [etagOf(theirs)]).playlists.removeSong({
      playlistId: playlist.id,
      songId: songIds[1]!,
    });
    await withIfMatch(owner, '*').playlists.removeSong({ playlistId: playlist.id, songId: songIds[2]! });
    expect((await read(playlist.id)).songIds).toEqual([songIds[0]]);
  });

  it('answers 404 for a song not in the playlist before looking at the tag', async () => {
    const { playlist } = await freshPlaylist(songIds.slice(0, 1));
    const absent = withIfMatch(owner, ['"stale"']).playlists.removeSong({
      playlistId: playlist.id,
      songId: songIds[3]!,
    });
    expect(await appCode(absent)).toBe('NOT_FOUND');
  });
});
