import { uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';
import { type EntityTagCondition, etagOf } from '../../etag';

/**
 * If-Match on the playlist writes (PUT, DELETE, adding and removing a song): checked against the
 * playlist's representation under its row lock, songs and their order included.
 */

const h = await createRouterHarness();
afterAll(() => h.close());

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
    const renamed = await h.callerIfMatch(owner, [etag]).playlists.replace({
      playlistId: playlist.id,
      name: 'Two',
    });
    expect(renamed).toMatchObject({ name: 'Two', songIds: playlist.songIds });
    const starred = await h.callerIfMatch(owner, '*').playlists.replace({
      playlistId: playlist.id,
      name: 'Three',
    });
    expect(starred.name).toBe('Three');
    // One of several listed tags is enough.
    const listed = await h.callerIfMatch(owner, ['"other"', etagOf(starred)]).playlists.replace({
      playlistId: playlist.id,
      name: 'Four',
    });
    expect(listed.name).toBe('Four');
  });

  it('answers 412 and changes nothing once another client has reordered', async () => {
    const { playlist, etag } = await freshPlaylist();
    const theirs = await reorder(playlist.id, playlist.name, [songIds[1]!, songIds[0]!, songIds[2]!]);
    const stale = h.callerIfMatch(owner, [etag]).playlists.replace({
      playlistId: playlist.id,
      name: 'Mine',
      songIds: [songIds[0]!],
    });
    expect(await appCode(stale)).toBe('PRECONDITION_FAILED');
    expect(await read(playlist.id)).toEqual(theirs);
  });

  it('refuses a weak tag (If-Match compares strongly)', async () => {
    const { playlist, etag } = await freshPlaylist();
    const weak = h
      .callerIfMatch(owner, [`W/${etag}`])
      .playlists.replace({ playlistId: playlist.id, name: 'x' });
    expect(await appCode(weak)).toBe('PRECONDITION_FAILED');
    expect(await read(playlist.id)).toEqual(playlist);
  });

  it('lets exactly one of several concurrent writers with the same tag through', async () => {
    const { playlist, etag } = await freshPlaylist();
    const results = await Promise.all(
      ['A', 'B', 'C', 'D'].map((name) =>
        h
          .callerIfMatch(owner, [etag])
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
      await appCode(h.callerIfMatch(owner, '*').playlists.replace({ playlistId: uuidv7(), name: 'x' })),
    ).toBe('NOT_FOUND');
    const stranger = await h.makeActor('user');
    const { playlist } = await freshPlaylist();
    expect(
      await appCode(
        h.callerIfMatch(stranger, ['"stale"']).playlists.replace({ playlistId: playlist.id, name: 'x' }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe('If-Match on DELETE /playlists/{id}', () => {
  it('keeps the playlist on a stale tag, deletes on the current one', async () => {
    const { playlist, etag } = await freshPlaylist();
    await h.caller(owner).playlists.addSong({ playlistId: playlist.id, songId: songIds[3]! });
    expect(await appCode(h.callerIfMatch(owner, [etag]).playlists.delete({ playlistId: playlist.id }))).toBe(
      'PRECONDITION_FAILED',
    );
    const current = await read(playlist.id);
    expect(current.songIds).toEqual([...playlist.songIds, songIds[3]]);
    await h.callerIfMatch(owner, [etagOf(current)]).playlists.delete({ playlistId: playlist.id });
    expect(await appCode(read(playlist.id))).toBe('NOT_FOUND');
  });

  it('deletes with *, which an absent playlist does not match', async () => {
    const { playlist } = await freshPlaylist();
    await h.callerIfMatch(owner, '*').playlists.delete({ playlistId: playlist.id });
    expect(await appCode(h.callerIfMatch(owner, '*').playlists.delete({ playlistId: playlist.id }))).toBe(
      'NOT_FOUND',
    );
  });
});

/**
 * A song write (`addSong` or `removeSong`) on a playlist of `songs` that another client then
 * reorders to `order`: with the tag read before the reorder it is refused (412) and leaves the
 * playlist as the reorder did; with the current tag it writes `first`, with `*` then `second`.
 * Returns the playlist's songs after both.
 */
async function songWriteAfterReorder(
  write: 'addSong' | 'removeSong',
  songs: string[],
  order: string[],
  [first, second]: [string, string],
) {
  const { playlist, etag } = await freshPlaylist(songs);
  const theirs = await reorder(playlist.id, playlist.name, order);
  const send = (condition: EntityTagCondition, songId: string) =>
    h.callerIfMatch(owner, condition).playlists[write]({ playlistId: playlist.id, songId });
  expect(await appCode(send([etag], first))).toBe('PRECONDITION_FAILED');
  expect(await read(playlist.id)).toEqual(theirs);
  await send([etagOf(theirs)], first);
  await send('*', second);
  return (await read(playlist.id)).songIds;
}

describe('If-Match on POST /playlists/{id}/songs', () => {
  it('appends with the current tag or *, refuses a stale one and leaves the songs as they were', async () => {
    const [s0, s1, s2, s3] = songIds as [string, string, string, string];
    expect(await songWriteAfterReorder('addSong', [s0, s1], [s1, s0], [s2, s3])).toEqual([s1, s0, s2, s3]);
  });

  it('checks the song (422) before the tag, and the tag before a duplicate (409)', async () => {
    const { playlist, etag } = await freshPlaylist(songIds.slice(0, 1));
    const unknownSong = h.callerIfMatch(owner, ['"stale"']).playlists.addSong({
      playlistId: playlist.id,
      songId: uuidv7(),
    });
    expect(await appCode(unknownSong)).toBe('VALIDATION_FAILED');
    const duplicateStale = h.callerIfMatch(owner, ['"stale"']).playlists.addSong({
      playlistId: playlist.id,
      songId: songIds[0]!,
    });
    expect(await appCode(duplicateStale)).toBe('PRECONDITION_FAILED');
    const duplicate = h.callerIfMatch(owner, [etag]).playlists.addSong({
      playlistId: playlist.id,
      songId: songIds[0]!,
    });
    expect(await appCode(duplicate)).toBe('CONFLICT');
  });
});

describe('If-Match on DELETE /playlists/{id}/songs/{songId}', () => {
  it('removes with the current tag or *, refuses a stale one and leaves the songs as they were', async () => {
    const [s0, s1, s2] = songIds as [string, string, string];
    expect(await songWriteAfterReorder('removeSong', [s0, s1, s2], [s2, s1, s0], [s1, s2])).toEqual([s0]);
  });

  it('answers 404 for a song not in the playlist before looking at the tag', async () => {
    const { playlist } = await freshPlaylist(songIds.slice(0, 1));
    const absent = h.callerIfMatch(owner, ['"stale"']).playlists.removeSong({
      playlistId: playlist.id,
      songId: songIds[3]!,
    });
    expect(await appCode(absent)).toBe('NOT_FOUND');
  });
});
