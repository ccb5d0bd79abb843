import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { error, makeArtist, makePlaylist, makeSong, type Playlist, type Song } from '../support/catalogue';
import { event, type FeedPage, feedRig, of, sorted, type User } from '../support/feed';
import { startTestApi } from '../support/harness';

/**
 * GET /v1/events: who sees which events (roles, playlists' visibility, API keys' scope) and the
 * events of cascades. Each test looks only at the events of the records it made.
 */

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');
const { feed, sync, read, write } = feedRig(api, admin);

describe('GET /v1/events: who sees what', () => {
  it('shows others no user events and no private playlist of someone else; a public one, then only that it went private', async () => {
    const owner = await api.signUp();
    const other = await api.signUp();
    const before = {
      owner: (await sync(owner.token)).cursor,
      other: (await sync(other.token)).cursor,
      admin: (await sync(admin.token)).cursor,
    };
    const hidden = await makePlaylist(api, owner);
    const open = await makePlaylist(api, owner, { isPublic: true });
    const renamed = await write<User>('PATCH', `/users/${owner.id}`, owner.token, {
      username: 'Owner renamed',
    });

    const seen = await sync(other.token, before.other);
    expect(of(seen.events, hidden.id, open.id, owner.id)).toEqual([event('playlist.created', open)]);
    const closed = await write<Playlist>('PUT', `/playlists/${open.id}`, owner.token, {
      name: open.name,
      isPublic: false,
    });
    const closedRenamed = await write<Playlist>('PUT', `/playlists/${open.id}`, owner.token, {
      name: 'Private now',
    });
    expect(closedRenamed.isPublic).toBe(false);
    const afterClosing = await sync(other.token, seen.cursor);
    expect(of(afterClosing.events, hidden.id, open.id, owner.id)).toEqual([
      event('playlist.updated', { id: open.id, isPublic: false }),
    ]);
    // No user event at all, not even their own, for a non-admin.
    const everything = await sync(other.token);
    expect(everything.events.filter((e) => e.type.startsWith('user.'))).toEqual([]);

    const own = await sync(owner.token, before.owner);
    const full = [
      event('playlist.created', hidden),
      event('playlist.created', open),
      event('playlist.updated', closed),
      event('playlist.updated', closedRenamed),
    ];
    expect(of(own.events, hidden.id, open.id, owner.id)).toEqual(full);
    const all = await sync(admin.token, before.admin);
    expect(of(all.events, hidden.id, open.id, owner.id)).toEqual([
      ...full.slice(0, 2),
      event('user.updated', renamed),
      ...full.slice(2),
    ]);
  });
});

describe('GET /v1/events: cascades', () => {
  it('deleting a song: song.deleted and playlist.updated for each playlist that held it', async () => {
    const [one, two] = [await api.signUp(), await api.signUp()];
    const song = await makeSong(api, admin);
    const kept = await makeSong(api, admin);
    const holding = [
      await makePlaylist(api, one, { songIds: [song.id, kept.id] }),
      await makePlaylist(api, two, { songIds: [song.id], isPublic: true }),
    ];
    const notHolding = await makePlaylist(api, one, { songIds: [kept.id] });
    const { cursor } = await sync(admin.token);
    await write('DELETE', `/songs/${song.id}`, admin.token, undefined, 204);
    const after = [
      await read<Playlist>(`/playlists/${holding[0]!.id}`, one.token),
      await read<Playlist>(`/playlists/${holding[1]!.id}`, two.token),
    ];
    expect(after.map((p) => p.songIds)).toEqual([[kept.id], []]);

    const { events } = await sync(admin.token, cursor);
    const ids = [song.id, kept.id, notHolding.id, ...holding.map((p) => p.id)];
    expect(sorted(of(events, ...ids))).toEqual(
      sorted([
        event('song.deleted', song),
        event('playlist.updated', after[0]!),
        event('playlist.updated', after[1]!),
      ]),
    );
  });

  it('deleting an artist: artist.deleted and song.updated for each song linked to it', async () => {
    const artist = await makeArtist(api, admin);
    const another = await makeArtist(api, admin);
    const solo = await makeSong(api, admin, { artistIds: [artist.id] });
    const duet = await makeSong(api, admin, { artistIds: [another.id, artist.id] });
    const unlinked = await makeSong(api, admin, { artistIds: [another.id] });
    const { cursor } = await sync(admin.token);
    await write('DELETE', `/artists/${artist.id}`, admin.token, undefined, 204);
    const after = [await read<Song>(`/songs/${solo.id}`), await read<Song>(`/songs/${duet.id}`)];
    expect(after.map((s) => s.artistIds)).toEqual([[], [another.id]]);

    const { events } = await sync(admin.token, cursor);
    expect(sorted(of(events, artist.id, another.id, solo.id, duet.id, unlinked.id))).toEqual(
      sorted([
        event('artist.deleted', artist),
        event('song.updated', after[0]!),
        event('song.updated', after[1]!),
      ]),
    );
  });

  it('deleting a user: user.deleted and playlist.deleted for each of their playlists', async () => {
    const leaving = await api.signUp();
    const playlists = [
      await makePlaylist(api, leaving),
      await makePlaylist(api, leaving, { isPublic: true, songIds: [(await makeSong(api, admin)).id] }),
    ];
    const account = await read<User>(`/users/${leaving.id}`);
    const { cursor } = await sync(admin.token);
    await write('DELETE', `/users/${leaving.id}`, admin.token, undefined, 204);

    const { events } = await sync(admin.token, cursor);
    expect(sorted(of(events, leaving.id, ...playlists.map((p) => p.id)))).toEqual(
      sorted([
        event('user.deleted', account),
        event('playlist.deleted', playlists[0]!),
        event('playlist.deleted', playlists[1]!),
      ]),
    );
  });
});

describe('GET /v1/events: authentication', () => {
  it('answers 401 without a token, 403 to an API key without events:read, and reads with one', async () => {
    const noToken = await api.request('GET', '/events');
    expect(noToken.status).toBe(401);
    expect(noToken.body).toEqual(error('UNAUTHORIZED'));

    const me = await api.signUp();
    const key = async (scopes: string[]) =>
      (await write<{ token: string }>('POST', '/api-keys', me.token, { name: 'feed', scopes }, 201)).token;
    const reader = await key(['events:read']);
    const song = await makeSong(api, admin);
    const { events } = await sync(reader);
    expect(of(events, song.id)).toEqual([event('song.created', song)]);
    expect(events.filter((e) => e.type.startsWith('user.'))).toEqual([]);

    const res = await feed('', await key(['catalogue:read']));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(error('FORBIDDEN'));
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="music", error="insufficient_scope", scope="events:read"',
    );
  });
});

describe('GET /v1/events: long runs a caller may not see', () => {
  /** `count` events only admins may read, written straight to the outbox. */
  const hidden = (count: number) =>
    sql`insert into change_events (id, type, resource_type, resource_id, data, audience)
      select gen_random_uuid(), 'user.updated', 'user', gen_random_uuid(), '{}'::jsonb, 'admins'
      from generate_series(1, ${count}::int)`.execute(api.database.db);

  it('reads on past them in one request; past 100,000 it answers a new cursor, then the rest', async () => {
    const listener = await api.signUp();
    const { cursor: start } = await sync(listener.token);
    await hidden(25_000);
    const song = await makeSong(api, admin);
    const read = async (after: string) => {
      const res = await feed(`after=${after}&types=song.created`, listener.token);
      expect(res.status).toBe(200);
      return res.body;
    };
    const once = await read(start);
    expect(once.data.map((e) => e.resource.id)).toEqual([song.id]);
    expect((await read(once.nextCursor)).nextCursor).toBe(once.nextCursor);

    await hidden(105_000);
    const later = await makeSong(api, admin);
    const passed = await read(once.nextCursor);
    expect(passed.data).toEqual([]);
    expect(passed.nextCursor).not.toBe(once.nextCursor);
    const rest = await read(passed.nextCursor);
    expect(rest.data.map((e) => e.resource.id)).toEqual([later.id]);
  });
});

describe('GET /v1/events: on two instances', () => {
  it('gives a reader that alternates instances every event once, while both take writes at once', async () => {
    const sibling = await api.startSibling();
    try {
      const { cursor: start } = await sync(admin.token);
      const instances = [api, sibling];
      const made: string[] = [];
      const seen: string[] = [];
      let cursor = start;
      let turn = 0;
      const readOnce = async () => {
        const res = await instances[turn++ % 2]!.request<FeedPage>('GET', `/events?after=${cursor}&limit=3`, {
          token: admin.token,
        });
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((e) => e.id));
        cursor = res.body.nextCursor;
        return res.body.data.length;
      };
      // Rounds of six creations at once, three on each instance, read between rounds.
      for (let round = 0; round < 4; round++) {
        const songs = await Promise.all(
          Array.from({ length: 6 }, (_, k) =>
            instances[k % 2]!.request<Song>('POST', '/songs', {
              token: admin.token,
              body: { title: `Two instances ${round}.${k}`, duration: 60 },
            }),
          ),
        );
        for (const res of songs) {
          expect(res.status).toBe(201);
          made.push(res.body.id);
        }
        await readOnce();
      }
      for (let read = await readOnce(); read > 0; read = await readOnce()) {
        // Read on until the feed has nothing new.
      }
      // Every event once; each song's creation among them (the file's other tests may add more).
      expect(new Set(seen).size).toBe(seen.length);
      const { events } = await sync(admin.token, start);
      expect(seen).toEqual(events.slice(0, seen.length).map((e) => e.id));
      expect(of(events, ...made).map((e) => e.type)).toEqual(made.map(() => 'song.created'));
    } finally {
      await sibling.close();
    }
  });
});
