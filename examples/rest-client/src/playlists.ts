import { type BodyOf, documentedHeader, expectData, expectError } from './documented';
import type { Caller, Playlist, Run, Song } from './run';
import { check, checkRecord, equal } from './steps';

/** POST /playlists as a listener: the first three songs, in order. */
export function buildPlaylist(run: Run, listener: Caller | undefined, songs: Song[] | undefined) {
  return run.scenario.step('build a playlist', [listener, songs], async ([{ client, user }, all], say) => {
    const songIds = all.slice(0, 3).map((song) => song.id);
    const body: BodyOf<'POST /playlists'> = {
      name: `Road trip ${run.tag}`,
      description: 'Built by the REST client example.',
      songIds,
    };
    const result = await client.POST('/playlists', { body });
    const playlist = expectData(result, 'POST /playlists', 201);
    checkRecord(playlist, 'playlist');
    equal(
      {
        userId: playlist.userId,
        isPublic: playlist.isPublic,
        songIds: playlist.songIds,
        songCount: playlist.songCount,
      },
      { userId: user.id, isPublic: false, songIds, songCount: 3 },
      'playlist',
    );
    const location = documentedHeader(result.response, 'POST /playlists', 201, 'Location');
    equal(location, `/v1/playlists/${playlist.id}`, 'Location');
    say(`201 ${playlist.name} with 3 songs`);
    return playlist;
  });
}

/** The playlist's ETags around the reorder, for the stale write that follows. */
export interface Reordered {
  playlist: Playlist;
  staleEtag: string;
  currentEtag: string;
}

/**
 * Read, then write with `If-Match`: GET gives the ETag, PUT sends it back with the new order.
 * Had anyone changed the playlist in between, the PUT would get 412 instead of overwriting it.
 */
export function reorderWithIfMatch(run: Run, listener: Caller | undefined, playlist: Playlist | undefined) {
  return run.scenario.step(
    'reorder the playlist with If-Match',
    [listener, playlist],
    async ([{ client }, { id }], say): Promise<Reordered> => {
      const path = { playlistId: id };
      const read = await client.GET('/playlists/{playlistId}', { params: { path } });
      const current = expectData(read, 'GET /playlists/{playlistId}', 200);
      const etag = documentedHeader(read.response, 'GET /playlists/{playlistId}', 200, 'ETag');
      check(/^"[^"]+"$/.test(etag), `the ETag ${etag} is not a strong entity tag`);

      const songIds = [...current.songIds].reverse();
      const { name, description, isPublic } = current;
      const body: BodyOf<'PUT /playlists/{playlistId}'> = { name, description, isPublic, songIds };
      const result = await client.PUT('/playlists/{playlistId}', {
        params: { path, header: { 'If-Match': etag } },
        body,
      });
      const updated = expectData(result, 'PUT /playlists/{playlistId}', 200);
      equal(updated.songIds, songIds, 'songIds after the reorder');
      equal(updated.songCount, songIds.length, 'songCount after the reorder');
      const newEtag = documentedHeader(result.response, 'PUT /playlists/{playlistId}', 200, 'ETag');
      check(newEtag !== etag, 'the ETag did not change with the order of the songs');
      say(`GET gave ETag ${etag}; PUT with If-Match: 200, reversed, new ETag ${newEtag}`);
      return { playlist: updated, staleEtag: etag, currentEtag: newEtag };
    },
  );
}

/** A write with an ETag that is no longer current: 412, and the playlist is as it was. */
export function staleIfMatch(run: Run, listener: Caller | undefined, reordered: Reordered | undefined) {
  return run.scenario.step(
    'a stale If-Match gets 412',
    [listener, reordered],
    async ([{ client }, { playlist, staleEtag, currentEtag }], say) => {
      const path = { playlistId: playlist.id };
      const body: BodyOf<'PUT /playlists/{playlistId}'> = {
        name: `${playlist.name} (lost update)`,
        songIds: [...playlist.songIds].reverse(),
      };
      const result = await client.PUT('/playlists/{playlistId}', {
        params: { path, header: { 'If-Match': staleEtag } },
        body,
      });
      const error = expectError(result, 'PUT /playlists/{playlistId}', 412);
      equal(error.code, 'PRECONDITION_FAILED', 'code');

      const read = await client.GET('/playlists/{playlistId}', { params: { path } });
      const after = expectData(read, 'GET /playlists/{playlistId}', 200);
      equal(after, playlist, 'the playlist after the refused write');
      equal(documentedHeader(read.response, 'GET /playlists/{playlistId}', 200, 'ETag'), currentEtag, 'ETag');
      say('412 PRECONDITION_FAILED; the playlist and its ETag are unchanged');
      return true as const;
    },
  );
}
