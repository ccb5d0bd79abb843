import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  catalogueWorld,
  DATE,
  error,
  expectCreated,
  makeArtist,
  makePlaylist,
  makeSong,
  type Playlist,
  type Song,
  validation,
} from '../support/catalogue';
import type { SignedIn } from '../support/harness';

const w = catalogueWorld();

describe('POST /v1/songs', () => {
  it('creates a song as admin: 201, Location, the exact record with artists in the given order', async () => {
    const a = await makeArtist(w.api, w.admin);
    const b = await makeArtist(w.api, w.admin);
    const res = await w.api.request<Song>('POST', '/songs', {
      token: w.admin.token,
      body: {
        title: ' Blue Hour ',
        album: 'Nocturnes',
        genre: 'Jazz',
        duration: 356,
        releaseYear: 2016,
        artistIds: [b.id, a.id],
      },
    });
    expectCreated(res, '/songs', {
      title: 'Blue Hour',
      album: 'Nocturnes',
      genre: 'Jazz',
      duration: 356,
      releaseYear: 2016,
      isrc: null,
      externalId: null,
      artistIds: [b.id, a.id],
    });
    expect((await w.api.request('GET', `/songs/${res.body.id}`, { token: w.user.token })).body).toEqual(
      res.body,
    );
  });

  it('defaults the optional fields to null and artistIds to [] for an admin', async () => {
    const song = await makeSong(w.api, w.admin, { title: 'Bare', duration: 1 });
    expect(song).toMatchObject({ album: null, genre: null, releaseYear: null, artistIds: [], duration: 1 });
  });

  it('lets an artist account create songs of its own artist, defaulting artistIds to it', async () => {
    const own = await makeSong(w.api, w.manager);
    expect(own.artistIds).toEqual([w.managed.id]);
    const duet = await makeSong(w.api, w.manager, { artistIds: [w.otherArtist.id, w.managed.id] });
    expect(duet.artistIds).toEqual([w.otherArtist.id, w.managed.id]);
  });

  it('refuses with 403: plain users, artists without their own artist, artists with no artist', async () => {
    const lonely = await w.api.signUp('artist');
    const cases: Array<[SignedIn, Record<string, unknown>]> = [
      [w.user, {}],
      [w.user, { artistIds: [w.managed.id] }],
      [w.manager, { artistIds: [w.otherArtist.id] }],
      [w.manager, { artistIds: [] }],
      [lonely, {}],
      [lonely, { artistIds: [w.managed.id] }],
    ];
    for (const [caller, extra] of cases) {
      const res = await w.api.request('POST', '/songs', {
        token: caller.token,
        body: { title: 'x', duration: 10, ...extra },
      });
      expect(res.status, `${caller.role} ${JSON.stringify(extra)}`).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
  });

  it('validates every field with 422 and exact field names', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, ['title', 'duration']],
      [{ title: '', duration: 0 }, ['title', 'duration']],
      [{ title: 'x'.repeat(201), duration: 86401 }, ['title', 'duration']],
      [{ title: 'x', duration: 1.5 }, ['duration']],
      [{ title: 'x', duration: '100' }, ['duration']],
      [{ title: 'x', duration: 1, releaseYear: 999 }, ['releaseYear']],
      [{ title: 'x', duration: 1, releaseYear: 10000 }, ['releaseYear']],
      [{ title: 'x', duration: 1, album: 'a'.repeat(201), genre: 'g'.repeat(51) }, ['album', 'genre']],
      [{ title: 'x', duration: 1, artistIds: ['nope'] }, ['artistIds.0']],
      [{ title: 'x', duration: 1, artistIds: 'nope' }, ['artistIds']],
      [
        { title: 'x', duration: 1, id: randomUUID(), updatedAt: 'now', artists: [] },
        ['id', 'updatedAt', 'artists'],
      ],
    ];
    for (const [body, fields] of cases) {
      const res = await w.api.request('POST', '/songs', { token: w.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
    const edges = await makeSong(w.api, w.admin, {
      title: 'x'.repeat(200),
      duration: 86400,
      releaseYear: 9999,
    });
    expect(edges.duration).toBe(86400);
  });

  it('answers 422 on artistIds.N for repeated and unknown artists', async () => {
    const a = await makeArtist(w.api, w.admin);
    const repeated = await w.api.request('POST', '/songs', {
      token: w.admin.token,
      body: { title: 'x', duration: 1, artistIds: [a.id, w.managed.id, a.id] },
    });
    expect(repeated.status).toBe(422);
    expect(repeated.body).toEqual(validation(['artistIds.2']));
    const unknown = await w.api.request('POST', '/songs', {
      token: w.admin.token,
      body: { title: 'x', duration: 1, artistIds: [a.id, randomUUID(), randomUUID()] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(validation(['artistIds.1', 'artistIds.2']));
    const asArtist = await w.api.request('POST', '/songs', {
      token: w.manager.token,
      body: { title: 'x', duration: 1, artistIds: [w.managed.id, randomUUID()] },
    });
    expect(asArtist.body).toEqual(validation(['artistIds.1']));
  });
});

describe('GET /v1/songs/{songId}', () => {
  it('answers 404 for unknown, malformed and over-long ids, whatever the method', async () => {
    for (const id of [randomUUID(), 'x', '00000000-0000-0000-0000-00000000000g', 'a'.repeat(300)]) {
      for (const [method, body] of [['GET'], ['DELETE'], ['PATCH', {}]] as const) {
        const res = await w.api.request(method, `/songs/${id}`, { token: w.admin.token, body });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body).toEqual(error('NOT_FOUND'));
      }
    }
  });
});

describe('PATCH /v1/songs/{songId}', () => {
  it('changes only the given fields; artistIds replaces the set in the given order', async () => {
    const a = await makeArtist(w.api, w.admin);
    const b = await makeArtist(w.api, w.admin);
    const song = await makeSong(w.api, w.admin, { album: 'Kept', genre: 'Pop', artistIds: [a.id] });
    const res = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.admin.token,
      body: { title: 'Renamed', genre: null, artistIds: [b.id, a.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...song,
      title: 'Renamed',
      genre: null,
      artistIds: [b.id, a.id],
      updatedAt: expect.stringMatching(DATE),
    });
    const empty = await w.api.request('PATCH', `/songs/${song.id}`, { token: w.admin.token, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ title: 'Renamed', album: 'Kept', artistIds: [b.id, a.id] });
    const cleared = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.admin.token,
      body: { artistIds: [] },
    });
    expect(cleared.body.artistIds).toEqual([]);
  });

  it('lets a user linked to one of the song’s artists change it, keeping one of theirs', async () => {
    const song = await makeSong(w.api, w.admin, { artistIds: [w.otherArtist.id, w.managed.id] });
    const res = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.manager.token,
      body: { duration: 99 },
    });
    expect(res.status).toBe(200);
    expect(res.body.duration).toBe(99);
    const reorder = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.manager.token,
      body: { artistIds: [w.managed.id, w.otherArtist.id] },
    });
    expect(reorder.body.artistIds).toEqual([w.managed.id, w.otherArtist.id]);
    const dropOwn = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.manager.token,
      body: { artistIds: [w.otherArtist.id] },
    });
    expect(dropOwn.status).toBe(403);
    expect((await w.api.request('GET', `/songs/${song.id}`, { token: w.user.token })).body.artistIds).toEqual(
      [w.managed.id, w.otherArtist.id],
    );
  });

  it('refuses users not linked to the song’s artists with 403', async () => {
    const song = await makeSong(w.api, w.admin, { artistIds: [w.managed.id] });
    for (const caller of [w.user, w.otherManager]) {
      const res = await w.api.request('PATCH', `/songs/${song.id}`, {
        token: caller.token,
        body: { title: 'x' },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
  });

  it('validates first (422), then existence (404); unknown artists are 422', async () => {
    const song = await makeSong(w.api, w.admin);
    const bad = await w.api.request('PATCH', `/songs/${randomUUID()}`, {
      token: w.user.token,
      body: { title: null, duration: 0, songId: song.id },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(validation(['songId']));
    const invalid = await w.api.request('PATCH', `/songs/${randomUUID()}`, {
      token: w.user.token,
      body: { title: null, duration: 0 },
    });
    expect(invalid.body).toEqual(validation(['title', 'duration']));
    for (const id of [randomUUID(), 'nope']) {
      expect((await w.api.request('PATCH', `/songs/${id}`, { token: w.admin.token, body: {} })).status).toBe(
        404,
      );
    }
    const unknown = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.admin.token,
      body: { artistIds: [w.managed.id, w.managed.id] },
    });
    expect(unknown.body).toEqual(validation(['artistIds.1']));
    const missing = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.admin.token,
      body: { artistIds: [randomUUID()] },
    });
    expect(missing.body).toEqual(validation(['artistIds.0']));
  });
});

describe('DELETE /v1/songs/{songId}', () => {
  it('deletes with 204; the song leaves playlists and artist links, the artist and playlist stay', async () => {
    const artist = await makeArtist(w.api, w.admin);
    const song = await makeSong(w.api, w.admin, { artistIds: [artist.id] });
    const kept = await makeSong(w.api, w.admin, { artistIds: [artist.id] });
    const playlist = await makePlaylist(w.api, w.user, { songIds: [song.id, kept.id] });
    const res = await w.api.request('DELETE', `/songs/${song.id}`, { token: w.admin.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await w.api.request('GET', `/songs/${song.id}`, { token: w.admin.token })).status).toBe(404);
    const after = await w.api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: w.user.token });
    expect(after.body).toMatchObject({ songIds: [kept.id], songCount: 1 });
    const artistSongs = await w.api.request('GET', `/artists/${artist.id}/songs`, { token: w.user.token });
    expect(artistSongs.body.data.map((s: Song) => s.id)).toEqual([kept.id]);
    expect((await w.api.request('DELETE', `/songs/${song.id}`, { token: w.admin.token })).status).toBe(404);
  });

  it('lets a linked user delete; others get 403, unknown ids 404', async () => {
    const song = await makeSong(w.api, w.manager);
    for (const caller of [w.user, w.otherManager]) {
      const res = await w.api.request('DELETE', `/songs/${song.id}`, { token: caller.token });
      expect(res.status).toBe(403);
    }
    expect((await w.api.request('DELETE', `/songs/${song.id}`, { token: w.manager.token })).status).toBe(204);
    expect((await w.api.request('DELETE', '/songs/nope', { token: w.user.token })).status).toBe(404);
  });
});
