import { afterAll, describe, expect, it } from 'vitest';
import {
  DATE,
  error,
  makeArtist,
  makePlaylist,
  makeSong,
  type Playlist,
  type Song,
  UUID,
  validation,
} from '../support/catalogue';
import { event, feedRig, of, TYPES, type User } from '../support/feed';
import { startTestApi, uniqueEmail } from '../support/harness';

/**
 * GET /v1/events, the change feed: which writes make which events, in commit order, with the
 * resource as its own GET shows it; following nextCursor; the types filter and the 4xx of its
 * query (who sees what, and cascades: events-access.test.ts). The file's database is shared by
 * its tests, so each looks only at the events of the records it made.
 */

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');
const { feed, readFrom, readUntil, sync, read, write } = feedRig(api, admin);

describe('GET /v1/events: what each write makes', () => {
  it('song create, patch, link, unlink and delete: song.* with the song as its GET shows it', async () => {
    const { cursor } = await sync(admin.token);
    const artist = await makeArtist(api, admin);
    const song = await makeSong(api, admin, { title: 'Fed' });
    const patched = await write<Song>('PATCH', `/songs/${song.id}`, admin.token, { title: 'Fed again' });
    await write('POST', `/artists/${artist.id}/songs/${song.id}`, admin.token, undefined, 204);
    const linked = await read<Song>(`/songs/${song.id}`);
    expect(linked.artistIds).toEqual([artist.id]);
    await write('DELETE', `/artists/${artist.id}/songs/${song.id}`, admin.token, undefined, 204);
    const unlinked = await read<Song>(`/songs/${song.id}`);
    await write('DELETE', `/songs/${song.id}`, admin.token, undefined, 204);

    const { events } = await sync(admin.token, cursor);
    expect(of(events, song.id)).toEqual([
      event('song.created', song),
      event('song.updated', patched),
      event('song.updated', linked),
      event('song.updated', unlinked),
      event('song.deleted', unlinked),
    ]);
    expect(of(events, artist.id)).toEqual([event('artist.created', artist)]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it('artist create, patch and delete: artist.*', async () => {
    const { cursor } = await sync(admin.token);
    const artist = await makeArtist(api, admin, { name: 'Fed artist' });
    const patched = await write<{ id: string }>('PATCH', `/artists/${artist.id}`, admin.token, {
      bio: 'Bio',
    });
    await write('DELETE', `/artists/${artist.id}`, admin.token, undefined, 204);
    const { events } = await sync(admin.token, cursor);
    expect(of(events, artist.id)).toEqual([
      event('artist.created', artist),
      event('artist.updated', patched),
      event('artist.deleted', patched),
    ]);
  });

  it('playlist create, replace, song added, song removed and delete: playlist.*', async () => {
    const owner = await api.signUp();
    const [first, second] = [await makeSong(api, admin), await makeSong(api, admin)];
    const { cursor } = await sync(admin.token);
    const playlist = await makePlaylist(api, owner, { songIds: [first.id] });
    const replaced = await write<Playlist>('PUT', `/playlists/${playlist.id}`, owner.token, {
      name: 'Replaced',
      isPublic: true,
    });
    await write('POST', `/playlists/${playlist.id}/songs`, owner.token, { songId: second.id }, 204);
    const added = await read<Playlist>(`/playlists/${playlist.id}`, owner.token);
    expect(added.songIds).toEqual([first.id, second.id]);
    await write('DELETE', `/playlists/${playlist.id}/songs/${first.id}`, owner.token, undefined, 204);
    const removed = await read<Playlist>(`/playlists/${playlist.id}`, owner.token);
    await write('DELETE', `/playlists/${playlist.id}`, owner.token, undefined, 204);

    const { events } = await sync(admin.token, cursor);
    expect(of(events, playlist.id, first.id, second.id)).toEqual([
      event('playlist.created', playlist),
      event('playlist.updated', replaced),
      event('playlist.updated', added),
      event('playlist.updated', removed),
      event('playlist.deleted', removed),
    ]);
  });

  it('sign-up, admin create, patch, role change and delete: user.*', async () => {
    const { cursor } = await sync(admin.token);
    const signedUp = await write<User>(
      'POST',
      '/users',
      '',
      {
        username: 'Fed user',
        email: uniqueEmail('feed'),
        password: 'long-enough-password',
      },
      201,
    );
    const made = await write<User>(
      'POST',
      '/users',
      admin.token,
      {
        username: 'Fed artist account',
        email: uniqueEmail('feed'),
        password: 'long-enough-password',
        role: 'artist',
      },
      201,
    );
    const renamed = await write<User>('PATCH', `/users/${signedUp.id}`, admin.token, { username: 'Renamed' });
    const promoted = await write<User>('PUT', `/users/${signedUp.id}/role`, admin.token, { role: 'artist' });
    expect(promoted.role).toBe('artist');
    const before = await read<User>(`/users/${signedUp.id}`);
    await write('DELETE', `/users/${signedUp.id}`, admin.token, undefined, 204);

    const { events } = await sync(admin.token, cursor);
    expect(of(events, signedUp.id)).toEqual([
      event('user.created', signedUp),
      event('user.updated', renamed),
      event('user.updated', promoted),
      event('user.deleted', before),
    ]);
    expect(of(events, made.id)).toEqual([event('user.created', made)]);
  });

  it('makes none for a write that changes nothing, nor for a refused or failed one', async () => {
    const listener = await api.signUp();
    const song = await makeSong(api, admin, { title: 'Unchanged' });
    const artist = await makeArtist(api, admin, { name: 'Unchanged artist' });
    const playlist = await makePlaylist(api, listener, { songIds: [song.id] });
    const { cursor } = await sync(admin.token);

    await write('PATCH', `/songs/${song.id}`, admin.token, { title: song.title, duration: song.duration });
    await write('PATCH', `/artists/${artist.id}`, admin.token, { name: artist.name });
    const stale = await api.request('PATCH', `/songs/${song.id}`, {
      token: admin.token,
      body: { title: 'Never' },
      headers: { 'if-match': '"stale"' },
    });
    expect(stale.status).toBe(412);
    expect((await api.request('DELETE', `/songs/${song.id}`, { token: listener.token })).status).toBe(403);
    const twice = await api.request('POST', `/playlists/${playlist.id}/songs`, {
      token: listener.token,
      body: { songId: song.id },
    });
    expect(twice.status).toBe(409);
    await write('POST', `/artists/${artist.id}/songs/${song.id}`, admin.token, undefined, 204);
    const linked = await read<Song>(`/songs/${song.id}`);
    // Linking again is fine, and changes nothing.
    await write('POST', `/artists/${artist.id}/songs/${song.id}`, admin.token, undefined, 204);

    const { events } = await sync(admin.token, cursor);
    expect(of(events, song.id, artist.id, playlist.id)).toEqual([event('song.updated', linked)]);
  });
});

describe('GET /v1/events: following nextCursor', () => {
  it('gives each event once, in commit order, in pages of any size, then an empty page and a cursor', async () => {
    const { cursor: start } = await sync(admin.token);
    const songs = [await makeSong(api, admin), await makeSong(api, admin), await makeSong(api, admin)];
    const patched = await write<Song>('PATCH', `/songs/${songs[0]!.id}`, admin.token, { title: 'Paged' });
    const artist = await makeArtist(api, admin);
    await write('POST', `/artists/${artist.id}/songs/${songs[1]!.id}`, admin.token, undefined, 204);
    const linked = await read<Song>(`/songs/${songs[1]!.id}`);
    await write('DELETE', `/songs/${songs[2]!.id}`, admin.token, undefined, 204);

    const whole = await sync(admin.token, start);
    expect(of(whole.events, artist.id, ...songs.map((s) => s.id))).toEqual([
      event('song.created', songs[0]!),
      event('song.created', songs[1]!),
      event('song.created', songs[2]!),
      event('song.updated', patched),
      event('artist.created', artist),
      event('song.updated', linked),
      event('song.deleted', songs[2]!),
    ]);
    const paged = await readFrom(admin.token, { after: start, limit: 2 });
    expect(paged.events).toEqual(whole.events);

    const idle = await feed(`after=${encodeURIComponent(paged.cursor)}`);
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ data: [], nextCursor: expect.any(String) });
    const later = await makeSong(api, admin);
    const next = await readUntil(admin.token, idle.body.nextCursor, (events) => events.length > 0);
    expect(next.events).toEqual([event('song.created', later)]);
  });

  it('starts from the oldest event without `after`, and every event has the documented shape', async () => {
    const { events } = await sync(admin.token);
    // The file's first write: the admin's sign-up (made an admin in the database, not by a write).
    expect(events[0]).toMatchObject({ type: 'user.created', resource: { type: 'user', id: admin.id } });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    for (const e of events) {
      expect(e).toEqual({
        id: expect.stringMatching(UUID),
        type: expect.any(String),
        at: expect.stringMatching(DATE),
        resource: { type: e.type.split('.')[0], id: expect.stringMatching(UUID) },
        data: expect.objectContaining({ id: e.resource.id }),
      });
      expect(TYPES).toContain(e.type);
    }
    const first = await feed('limit=1');
    expect(first.body.data).toEqual([events[0]]);
  });
});

describe('GET /v1/events: its query', () => {
  it('filters by types, a resource’s own types with `song.*`, and several at once', async () => {
    const { cursor } = await sync(admin.token);
    const song = await makeSong(api, admin);
    const patched = await write<Song>('PATCH', `/songs/${song.id}`, admin.token, { genre: 'Filtered' });
    const artist = await makeArtist(api, admin);
    const playlist = await makePlaylist(api, admin);
    await write('DELETE', `/songs/${song.id}`, admin.token, undefined, 204);
    await sync(admin.token, cursor);
    const mine = [song.id, artist.id, playlist.id];

    const songs = await readFrom(admin.token, { after: cursor, types: 'song.*' });
    expect(songs.events.every((e) => e.type.startsWith('song.'))).toBe(true);
    expect(of(songs.events, ...mine)).toEqual([
      event('song.created', song),
      event('song.updated', patched),
      event('song.deleted', patched),
    ]);
    const mixed = await readFrom(admin.token, { after: cursor, types: 'song.created,playlist.*' });
    expect(mixed.events.every((e) => e.type === 'song.created' || e.type.startsWith('playlist.'))).toBe(true);
    expect(of(mixed.events, ...mine)).toEqual([
      event('song.created', song),
      event('playlist.created', playlist),
    ]);
    const deletions = await readFrom(admin.token, { after: cursor, types: 'song.deleted,artist.updated' });
    expect(deletions.events.map((e) => e.type)).toEqual(['song.deleted']);
  });

  it('answers 422 on `types` for an unknown type, on `after` for a cursor it never gave, 400 for a bad limit', async () => {
    for (const types of ['song.played', 'album.*', 'song.created,nope']) {
      const res = await feed(`types=${encodeURIComponent(types)}`);
      expect(res.status, types).toBe(422);
      expect(res.body, types).toEqual(validation(['types']));
    }
    for (const after of ['nonsense', 'bm90LWEtY3Vyc29y']) {
      const res = await feed(`after=${after}`);
      expect(res.status, after).toBe(422);
      expect(res.body, after).toEqual(validation(['after']));
    }
    for (const limit of ['0', '1001', '2.5', 'ten', '-1']) {
      const res = await feed(`limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.body, limit).toEqual(error('BAD_REQUEST'));
    }
    expect((await feed('limit=1000')).status).toBe(200);
  });
});
