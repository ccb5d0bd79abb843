import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Artist,
  DATE,
  error,
  expectTokenRequired,
  makeArtist,
  makeArtistAccount,
  makePlaylist,
  makeSong,
  type Playlist,
  type Song,
  tag,
  UUID,
  validation,
} from './testing/catalogue';
import { createClient, type SignedIn, startTestApi, type TestApi } from './testing/harness';

let api: TestApi;
let admin: SignedIn;
let user: SignedIn;
/** An `artist` account managing `managed`. */
let manager: SignedIn;
let managed: Artist;
/** Another `artist` account managing `otherArtist`. */
let otherManager: SignedIn;
let otherArtist: Artist;

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.signUp('admin');
  user = await api.signUp('user');
  ({ account: manager, artist: managed } = await makeArtistAccount(api, admin));
  ({ account: otherManager, artist: otherArtist } = await makeArtistAccount(api, admin));
});
afterAll(() => api?.close());

const list = (query: string, token = user.token) =>
  api.request<{ data: Song[]; pagination: { page: number; limit: number; total: number } }>(
    'GET',
    `/songs?${query}`,
    { token },
  );

describe('songs: authentication', () => {
  it('answers 401 on every operation without a valid token', async () => {
    const id = randomUUID();
    await expectTokenRequired(api, [
      ['GET', '/songs'],
      ['POST', '/songs'],
      ['GET', `/songs/${id}`],
      ['PATCH', `/songs/${id}`],
      ['DELETE', `/songs/${id}`],
    ]);
  });
});

describe('POST /v1/songs', () => {
  it('creates a song as admin: 201, Location, the exact record with artists in the given order', async () => {
    const a = await makeArtist(api, admin);
    const b = await makeArtist(api, admin);
    const res = await api.request<Song>('POST', '/songs', {
      token: admin.token,
      body: {
        title: ' Blue Hour ',
        album: 'Nocturnes',
        genre: 'Jazz',
        duration: 356,
        releaseYear: 2016,
        artistIds: [b.id, a.id],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      title: 'Blue Hour',
      album: 'Nocturnes',
      genre: 'Jazz',
      duration: 356,
      releaseYear: 2016,
      artistIds: [b.id, a.id],
      createdAt: expect.stringMatching(DATE),
      updatedAt: expect.stringMatching(DATE),
    });
    expect(res.headers.get('location')).toBe(`/v1/songs/${res.body.id}`);
    expect((await api.request('GET', `/songs/${res.body.id}`, { token: user.token })).body).toEqual(res.body);
  });

  it('defaults the optional fields to null and artistIds to [] for an admin', async () => {
    const song = await makeSong(api, admin, { title: 'Bare', duration: 1 });
    expect(song).toMatchObject({ album: null, genre: null, releaseYear: null, artistIds: [], duration: 1 });
  });

  it('lets an artist account create songs of its own artist, defaulting artistIds to it', async () => {
    const own = await makeSong(api, manager);
    expect(own.artistIds).toEqual([managed.id]);
    const duet = await makeSong(api, manager, { artistIds: [otherArtist.id, managed.id] });
    expect(duet.artistIds).toEqual([otherArtist.id, managed.id]);
  });

  it('refuses with 403: plain users, artists without their own artist, artists with no artist', async () => {
    const lonely = await api.signUp('artist');
    const cases: Array<[SignedIn, Record<string, unknown>]> = [
      [user, {}],
      [user, { artistIds: [managed.id] }],
      [manager, { artistIds: [otherArtist.id] }],
      [manager, { artistIds: [] }],
      [lonely, {}],
      [lonely, { artistIds: [managed.id] }],
    ];
    for (const [caller, extra] of cases) {
      const res = await api.request('POST', '/songs', {
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
      const res = await api.request('POST', '/songs', { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
    const edges = await makeSong(api, admin, { title: 'x'.repeat(200), duration: 86400, releaseYear: 9999 });
    expect(edges.duration).toBe(86400);
  });

  it('answers 422 on artistIds.N for repeated and unknown artists', async () => {
    const a = await makeArtist(api, admin);
    const repeated = await api.request('POST', '/songs', {
      token: admin.token,
      body: { title: 'x', duration: 1, artistIds: [a.id, managed.id, a.id] },
    });
    expect(repeated.status).toBe(422);
    expect(repeated.body).toEqual(validation(['artistIds.2']));
    const unknown = await api.request('POST', '/songs', {
      token: admin.token,
      body: { title: 'x', duration: 1, artistIds: [a.id, randomUUID(), randomUUID()] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(validation(['artistIds.1', 'artistIds.2']));
    const asArtist = await api.request('POST', '/songs', {
      token: manager.token,
      body: { title: 'x', duration: 1, artistIds: [managed.id, randomUUID()] },
    });
    expect(asArtist.body).toEqual(validation(['artistIds.1']));
  });
});

describe('GET /v1/songs/{songId}', () => {
  it('answers 404 for unknown, malformed and over-long ids, whatever the method', async () => {
    for (const id of [randomUUID(), 'x', '00000000-0000-0000-0000-00000000000g', 'a'.repeat(300)]) {
      for (const [method, body] of [['GET'], ['DELETE'], ['PATCH', {}]] as const) {
        const res = await api.request(method, `/songs/${id}`, { token: admin.token, body });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body).toEqual(error('NOT_FOUND'));
      }
    }
  });
});

describe('PATCH /v1/songs/{songId}', () => {
  it('changes only the given fields; artistIds replaces the set in the given order', async () => {
    const a = await makeArtist(api, admin);
    const b = await makeArtist(api, admin);
    const song = await makeSong(api, admin, { album: 'Kept', genre: 'Pop', artistIds: [a.id] });
    const res = await api.request('PATCH', `/songs/${song.id}`, {
      token: admin.token,
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
    const empty = await api.request('PATCH', `/songs/${song.id}`, { token: admin.token, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ title: 'Renamed', album: 'Kept', artistIds: [b.id, a.id] });
    const cleared = await api.request('PATCH', `/songs/${song.id}`, {
      token: admin.token,
      body: { artistIds: [] },
    });
    expect(cleared.body.artistIds).toEqual([]);
  });

  it('lets a user linked to one of the song’s artists change it, keeping one of theirs', async () => {
    const song = await makeSong(api, admin, { artistIds: [otherArtist.id, managed.id] });
    const res = await api.request('PATCH', `/songs/${song.id}`, {
      token: manager.token,
      body: { duration: 99 },
    });
    expect(res.status).toBe(200);
    expect(res.body.duration).toBe(99);
    const reorder = await api.request('PATCH', `/songs/${song.id}`, {
      token: manager.token,
      body: { artistIds: [managed.id, otherArtist.id] },
    });
    expect(reorder.body.artistIds).toEqual([managed.id, otherArtist.id]);
    const dropOwn = await api.request('PATCH', `/songs/${song.id}`, {
      token: manager.token,
      body: { artistIds: [otherArtist.id] },
    });
    expect(dropOwn.status).toBe(403);
    expect((await api.request('GET', `/songs/${song.id}`, { token: user.token })).body.artistIds).toEqual([
      managed.id,
      otherArtist.id,
    ]);
  });

  it('refuses users not linked to the song’s artists with 403', async () => {
    const song = await makeSong(api, admin, { artistIds: [managed.id] });
    for (const caller of [user, otherManager]) {
      const res = await api.request('PATCH', `/songs/${song.id}`, {
        token: caller.token,
        body: { title: 'x' },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
  });

  it('validates first (422), then existence (404); unknown artists are 422', async () => {
    const song = await makeSong(api, admin);
    const bad = await api.request('PATCH', `/songs/${randomUUID()}`, {
      token: user.token,
      body: { title: null, duration: 0, songId: song.id },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(validation(['songId']));
    const invalid = await api.request('PATCH', `/songs/${randomUUID()}`, {
      token: user.token,
      body: { title: null, duration: 0 },
    });
    expect(invalid.body).toEqual(validation(['title', 'duration']));
    for (const id of [randomUUID(), 'nope']) {
      expect((await api.request('PATCH', `/songs/${id}`, { token: admin.token, body: {} })).status).toBe(404);
    }
    const unknown = await api.request('PATCH', `/songs/${song.id}`, {
      token: admin.token,
      body: { artistIds: [managed.id, managed.id] },
    });
    expect(unknown.body).toEqual(validation(['artistIds.1']));
    const missing = await api.request('PATCH', `/songs/${song.id}`, {
      token: admin.token,
      body: { artistIds: [randomUUID()] },
    });
    expect(missing.body).toEqual(validation(['artistIds.0']));
  });

  it('has no PUT: 405 with an Allow header', async () => {
    const song = await makeSong(api, admin);
    const res = await api.request('PUT', `/songs/${song.id}`, {
      token: admin.token,
      body: { title: 'x', duration: 1 },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect(res.body).toEqual(error('METHOD_NOT_ALLOWED'));
  });
});

describe('DELETE /v1/songs/{songId}', () => {
  it('deletes with 204; the song leaves playlists and artist links, the artist and playlist stay', async () => {
    const artist = await makeArtist(api, admin);
    const song = await makeSong(api, admin, { artistIds: [artist.id] });
    const kept = await makeSong(api, admin, { artistIds: [artist.id] });
    const playlist = await makePlaylist(api, user, { songIds: [song.id, kept.id] });
    const res = await api.request('DELETE', `/songs/${song.id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.request('GET', `/songs/${song.id}`, { token: admin.token })).status).toBe(404);
    const after = await api.request<Playlist>('GET', `/playlists/${playlist.id}`, { token: user.token });
    expect(after.body).toMatchObject({ songIds: [kept.id], songCount: 1 });
    const artistSongs = await api.request('GET', `/artists/${artist.id}/songs`, { token: user.token });
    expect(artistSongs.body.data.map((s: Song) => s.id)).toEqual([kept.id]);
    expect((await api.request('DELETE', `/songs/${song.id}`, { token: admin.token })).status).toBe(404);
  });

  it('lets a linked user delete; others get 403, unknown ids 404', async () => {
    const song = await makeSong(api, manager);
    for (const caller of [user, otherManager]) {
      const res = await api.request('DELETE', `/songs/${song.id}`, { token: caller.token });
      expect(res.status).toBe(403);
    }
    expect((await api.request('DELETE', `/songs/${song.id}`, { token: manager.token })).status).toBe(204);
    expect((await api.request('DELETE', '/songs/nope', { token: user.token })).status).toBe(404);
  });
});

describe('GET /v1/songs', () => {
  it('searches title, album and artist names case-insensitively', async () => {
    const t = tag();
    const artist = await makeArtist(api, admin, { name: `Singer ${t}Voice` });
    const byTitle = await makeSong(api, admin, { title: `a title ${t}` });
    const byAlbum = await makeSong(api, admin, { title: 'b', album: `Album ${t.toUpperCase()}` });
    const byArtist = await makeSong(api, admin, { title: 'c', artistIds: [artist.id] });
    const res = await list(`search=${t.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([byTitle, byAlbum, byArtist]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    const voice = await list(`search=${encodeURIComponent(`${t}voice`)}`);
    expect(voice.body.data.map((s) => s.id)).toEqual([byArtist.id]);
  });

  it('answers a repeated search with every change made since, through any operation', async () => {
    const t = tag();
    const search = async () => (await list(`search=${t}`)).body.data.map((s: Song) => s.id);
    const artist = await makeArtist(api, admin, { name: 'Plain name' });
    const song = await makeSong(api, admin, { title: `first ${t}` });
    expect(await search()).toEqual([song.id]);
    const other = await makeSong(api, admin, { title: 'second', artistIds: [artist.id] });
    expect(await search()).toEqual([song.id]);
    const renamed = await api.request('PATCH', `/artists/${artist.id}`, {
      token: admin.token,
      body: { name: `Renamed ${t}` },
    });
    expect(renamed.status).toBe(200);
    expect(await search()).toEqual([song.id, other.id]);
    const unlinked = await api.request('DELETE', `/artists/${artist.id}/songs/${other.id}`, {
      token: admin.token,
    });
    expect(unlinked.status).toBe(204);
    expect(await search()).toEqual([song.id]);
    expect((await api.request('DELETE', `/songs/${song.id}`, { token: admin.token })).status).toBe(204);
    expect(await search()).toEqual([]);
  });

  it('matches LIKE metacharacters literally', async () => {
    const t = tag();
    const titles = [`100% ${t}`, `1000 ${t}`, `a_b ${t}`, `axb ${t}`, `a\\b ${t}`, `ab ${t}`];
    const songs = [];
    for (const title of titles) songs.push(await makeSong(api, admin, { title }));
    const ids = async (search: string) =>
      (await list(`search=${encodeURIComponent(search)}`)).body.data.map((s) => s.id);
    expect(await ids(`0% ${t}`)).toEqual([songs[0]!.id]);
    expect(await ids(`a_b ${t}`)).toEqual([songs[2]!.id]);
    expect(await ids(`a\\b ${t}`)).toEqual([songs[4]!.id]);
    expect(await ids(`%${t}`)).toEqual([]);
  });

  it('filters by genre (case-insensitive) and by artist, combined with search', async () => {
    const t = tag();
    const genre = `Genre${t}`;
    const artist = await makeArtist(api, admin);
    const one = await makeSong(api, admin, { title: `x ${t}`, genre, artistIds: [artist.id] });
    const two = await makeSong(api, admin, { title: `y ${t}`, genre: genre.toUpperCase() });
    const three = await makeSong(api, admin, { title: `z ${t}`, genre: 'Other', artistIds: [artist.id] });
    expect((await list(`genre=${genre.toLowerCase()}`)).body.data.map((s) => s.id)).toEqual([one.id, two.id]);
    expect((await list(`artistId=${artist.id}`)).body.data.map((s) => s.id)).toEqual([one.id, three.id]);
    expect((await list(`artistId=${artist.id}&genre=${genre}`)).body.data.map((s) => s.id)).toEqual([one.id]);
    expect((await list(`artistId=${artist.id}&search=z%20${t}`)).body.data.map((s) => s.id)).toEqual([
      three.id,
    ]);
    const nobody = await list(`artistId=${randomUUID()}`);
    expect(nobody.status).toBe(200);
    expect(nobody.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });

  it('pages by title, then id, stably; past the end gives [] with the true total', async () => {
    const t = tag();
    const made: Song[] = [];
    for (let i = 0; i < 5; i++) made.push(await makeSong(api, admin, { title: `same ${t}` }));
    made.push(await makeSong(api, admin, { title: `a first ${t}` }));
    const expected = [
      made[5]!.id,
      ...made
        .slice(0, 5)
        .map((s) => s.id)
        .sort(),
    ];
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list(`search=${t}&limit=2&page=${page}`);
      expect(res.body.pagination).toEqual({ page, limit: 2, total: 6 });
      seen.push(...res.body.data.map((s) => s.id));
    }
    expect(seen).toEqual(expected);
    const past = await list(`search=${t}&limit=2&page=4`);
    expect(past.body).toEqual({ data: [], pagination: { page: 4, limit: 2, total: 6 } });
    const big = await list('limit=100');
    expect(big.status).toBe(200);
    expect(big.body.pagination.limit).toBe(100);
    expect(big.body.data.length).toBe(Math.min(100, big.body.pagination.total));
  });

  it('answers 400 for malformed query parameters', async () => {
    for (const query of [
      'page=0',
      'limit=101',
      'limit=abc',
      'limit=0',
      'artistId=not-a-uuid',
      'search=%00',
    ]) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(error('BAD_REQUEST'));
    }
  });
});

describe('/trpc transport', () => {
  it('enforces the same authentication and authorization as /v1', async () => {
    const trpc = createClient(api.url.replace('/v1', '/trpc'));
    const song = await makeSong(api, manager);
    const input = encodeURIComponent(JSON.stringify({ songId: song.id }));
    const anonymous = await trpc.request('GET', `/songs.get?input=${input}`);
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(anonymous.body)).not.toContain(song.title);
    const read = await trpc.request('GET', `/songs.get?input=${input}`, { token: user.token });
    expect(read.status).toBe(200);
    expect(read.body.result.data).toEqual(song);
    const patch = await trpc.request('POST', '/songs.update', {
      token: otherManager.token,
      body: { songId: song.id, title: 'hijacked' },
    });
    expect(patch.status).toBe(403);
    expect(patch.body.error.data).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403 });
    const create = await trpc.request('POST', '/songs.create', {
      token: user.token,
      body: { title: 'x', duration: 1 },
    });
    expect(create.status).toBe(403);
    const unchanged = await api.request('GET', `/songs/${song.id}`, { token: user.token });
    expect(unchanged.body.title).toBe(song.title);
  });
});
