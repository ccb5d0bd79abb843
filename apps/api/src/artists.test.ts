import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Artist,
  DATE,
  error,
  expectTokenRequired,
  makeArtist,
  makeArtistAccount,
  makeSong,
  type Song,
  tag,
  UUID,
  validation,
} from './testing/catalogue';
import { type SignedIn, startTestApi, type TestApi } from './testing/harness';

let api: TestApi;
let admin: SignedIn;
let user: SignedIn;
/** An `artist` account managing `managed`. */
let manager: SignedIn;
let managed: Artist;
/** Another `artist` account, managing an artist of its own. */
let otherManager: SignedIn;

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.signUp('admin');
  user = await api.signUp('user');
  ({ account: manager, artist: managed } = await makeArtistAccount(api, admin));
  ({ account: otherManager } = await makeArtistAccount(api, admin));
});
afterAll(() => api?.close());

describe('artists: authentication', () => {
  it('answers 401 on every operation without a valid token, before validating the body', async () => {
    const id = randomUUID();
    const routes: Array<[string, string]> = [
      ['GET', '/artists'],
      ['POST', '/artists'],
      ['GET', `/artists/${id}`],
      ['PUT', `/artists/${id}`],
      ['PATCH', `/artists/${id}`],
      ['DELETE', `/artists/${id}`],
      ['GET', `/artists/${id}/songs`],
      ['POST', `/artists/${id}/songs/${id}`],
      ['DELETE', `/artists/${id}/songs/${id}`],
    ];
    await expectTokenRequired(api, routes);
  });
});

describe('POST /v1/artists', () => {
  it('creates an artist as admin: 201, Location, the exact record', async () => {
    const res = await api.request<Artist>('POST', '/artists', {
      token: admin.token,
      body: { name: '  The Testers  ', bio: 'Line one\nLine two' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'The Testers',
      bio: 'Line one\nLine two',
      userId: null,
      createdAt: expect.stringMatching(DATE),
      updatedAt: expect.stringMatching(DATE),
    });
    expect(res.headers.get('location')).toBe(`/v1/artists/${res.body.id}`);
    const read = await api.request('GET', `/artists/${res.body.id}`, { token: user.token });
    expect(read.body).toEqual(res.body);
  });

  it('links an account with role artist through userId', async () => {
    const account = await api.signUp('artist');
    const artist = await makeArtist(api, admin, { userId: account.id });
    expect(artist.userId).toBe(account.id);
  });

  it('refuses non-admins with 403', async () => {
    for (const caller of [user, manager]) {
      const res = await api.request('POST', '/artists', { token: caller.token, body: { name: 'Nope' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
  });

  it('validates the body with 422 and exact fields, before the role check', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 'x'.repeat(201) }, ['name']],
      [{ name: 'ok', bio: 'b'.repeat(2001) }, ['bio']],
      [{ name: 'ok', bio: 5 }, ['bio']],
      [{ name: 'ok', userId: 'not-a-uuid' }, ['userId']],
      [
        { name: 'ok', id: randomUUID(), createdAt: '2020-01-01T00:00:00Z', genre: 'x' },
        ['id', 'createdAt', 'genre'],
      ],
      [{ name: 'null\u0000byte' }, ['name']],
    ];
    for (const [body, fields] of cases) {
      const res = await api.request('POST', '/artists', { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
    const asUser = await api.request('POST', '/artists', { token: user.token, body: {} });
    expect(asUser.status).toBe(422);
    expect(
      (await api.request('POST', '/artists', { token: admin.token, body: { name: 'x'.repeat(200) } })).status,
    ).toBe(201);
  });

  it('answers 422 on userId when it names no user, or a user without the artist role', async () => {
    for (const userId of [randomUUID(), user.id, admin.id]) {
      const res = await api.request('POST', '/artists', { token: admin.token, body: { name: 'x', userId } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(validation(['userId']));
    }
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    for (const rawBody of ['{"name":', '[]', '"x"']) {
      const res = await api.request('POST', '/artists', {
        token: admin.token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error('BAD_REQUEST'));
    }
  });
});

describe('GET /v1/artists/{artistId}', () => {
  it('is readable by any signed-in user', async () => {
    for (const caller of [user, otherManager, admin]) {
      const res = await api.request('GET', `/artists/${managed.id}`, { token: caller.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...managed, updatedAt: expect.stringMatching(DATE) });
    }
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '1', "1' or '1'='1", 'a'.repeat(300)]) {
      const res = await api.request('GET', `/artists/${encodeURIComponent(id)}`, { token: user.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(error('NOT_FOUND'));
    }
  });
});

describe('GET /v1/artists', () => {
  it('filters by the managing account with userId (an extension)', async () => {
    const account = await api.signUp('artist');
    const mine = await makeArtist(api, admin, { userId: account.id });
    await makeArtist(api, admin);
    const res = await api.request('GET', `/artists?userId=${account.id}`, { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [mine], pagination: { page: 1, limit: 20, total: 1 } });
    const bad = await api.request('GET', '/artists?userId=nope', { token: account.token });
    expect(bad.status).toBe(400);
  });

  it('lists by name, then id, filtered by a case-insensitive substring', async () => {
    const t = tag();
    const names = [`b ${t}`, `a ${t}`, `c ${t} upper`, `b ${t}`];
    const made = [];
    for (const name of names) made.push(await makeArtist(api, admin, { name }));
    await makeArtist(api, admin, { name: `b ${t}` }); // same name: the id breaks the tie
    const res = await api.request<{ data: Artist[]; pagination: unknown }>(
      'GET',
      `/artists?search=${t.toUpperCase()}&limit=100`,
      { token: user.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: 5 });
    const listed = res.body.data;
    const sorted = [...listed].sort((a, b) =>
      a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1,
    );
    expect(listed.map((a) => a.id)).toEqual(sorted.map((a) => a.id));
    expect(listed[0]).toEqual(made[1]);
    const upper = await api.request('GET', `/artists?search=${encodeURIComponent(`${t} UPP`)}`, {
      token: user.token,
    });
    expect(upper.body.data.map((a: Artist) => a.id)).toEqual([made[2]!.id]);
  });

  it('matches LIKE metacharacters literally', async () => {
    const t = tag();
    const percent = await makeArtist(api, admin, { name: `100% ${t}` });
    await makeArtist(api, admin, { name: `1000 ${t}` });
    const underscore = await makeArtist(api, admin, { name: `a_b ${t}` });
    await makeArtist(api, admin, { name: `axb ${t}` });
    const backslash = await makeArtist(api, admin, { name: `a\\b ${t}` });
    const find = async (search: string) =>
      (
        await api.request('GET', `/artists?search=${encodeURIComponent(search)}`, { token: user.token })
      ).body.data.map((a: Artist) => a.id);
    expect(await find(`0% ${t}`)).toEqual([percent.id]);
    expect(await find(`a_b ${t}`)).toEqual([underscore.id]);
    expect(await find(`a\\b ${t}`)).toEqual([backslash.id]);
  });

  it('pages stably without duplicates, and past the end gives [] with the true total', async () => {
    const t = tag();
    for (let i = 0; i < 7; i++) await makeArtist(api, admin, { name: `Same ${t}` });
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await api.request('GET', `/artists?search=${t}&limit=3&page=${page}`, {
        token: user.token,
      });
      expect(res.body.pagination).toEqual({ page, limit: 3, total: 7 });
      seen.push(...res.body.data.map((a: Artist) => a.id));
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toEqual([...seen].sort());
    const past = await api.request('GET', `/artists?search=${t}&limit=3&page=4`, { token: user.token });
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], pagination: { page: 4, limit: 3, total: 7 } });
  });

  it('defaults to page 1 and 20 items, accepts limit 100', async () => {
    for (let i = 0; i < 21; i++) await makeArtist(api, admin);
    const first = await api.request('GET', '/artists', { token: user.token });
    expect(first.body.data).toHaveLength(20);
    expect(first.body.pagination).toMatchObject({ page: 1, limit: 20 });
    expect(first.body.pagination.total).toBeGreaterThanOrEqual(21);
    const all = await api.request('GET', '/artists?limit=100', { token: user.token });
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBe(Math.min(100, all.body.pagination.total));
  });

  it('answers 400 for malformed paging', async () => {
    for (const query of [
      'page=0',
      'limit=0',
      'limit=101',
      'limit=abc',
      'page=-1',
      'page=1.5',
      'page=1&page=2',
    ]) {
      const res = await api.request('GET', `/artists?${query}`, { token: user.token });
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(error('BAD_REQUEST'));
    }
  });
});

describe('PUT /v1/artists/{artistId}', () => {
  it('replaces the artist as admin: omitted fields become null', async () => {
    const account = await api.signUp('artist');
    const artist = await makeArtist(api, admin, { bio: 'old', userId: account.id });
    const res = await api.request('PUT', `/artists/${artist.id}`, {
      token: admin.token,
      body: { name: 'New' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...artist,
      name: 'New',
      bio: null,
      userId: null,
      updatedAt: expect.stringMatching(DATE),
    });
  });

  it('lets the linked user replace it, keeping the link when userId is omitted', async () => {
    const { account, artist } = await makeArtistAccount(api, admin);
    const res = await api.request('PUT', `/artists/${artist.id}`, {
      token: account.token,
      body: { name: 'Renamed', bio: 'mine' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', bio: 'mine', userId: account.id });
    const same = await api.request('PUT', `/artists/${artist.id}`, {
      token: account.token,
      body: { name: 'Again', userId: account.id },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ bio: null, userId: account.id });
  });

  it('refuses a linked user changing userId, and everyone else, with 403', async () => {
    const { account, artist } = await makeArtistAccount(api, admin);
    const other = await api.signUp('artist');
    for (const userId of [other.id, null]) {
      const res = await api.request('PUT', `/artists/${artist.id}`, {
        token: account.token,
        body: { name: 'x', userId },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
    for (const caller of [user, otherManager]) {
      const res = await api.request('PUT', `/artists/${artist.id}`, {
        token: caller.token,
        body: { name: 'x' },
      });
      expect(res.status).toBe(403);
    }
    const unchanged = await api.request('GET', `/artists/${artist.id}`, { token: user.token });
    expect(unchanged.body).toEqual(artist);
  });

  it('validates first (422), then existence (404), then permission (403)', async () => {
    const artist = await makeArtist(api, admin);
    expect(
      (await api.request('PUT', `/artists/${randomUUID()}`, { token: user.token, body: { bio: 'x' } })).body,
    ).toEqual(validation(['name']));
    const missing = await api.request('PUT', `/artists/${randomUUID()}`, {
      token: user.token,
      body: { name: 'x' },
    });
    expect(missing.status).toBe(404);
    const malformed = await api.request('PUT', '/artists/nope', { token: admin.token, body: { name: 'x' } });
    expect(malformed.status).toBe(404);
    const forbidden = await api.request('PUT', `/artists/${artist.id}`, {
      token: user.token,
      body: { name: 'x' },
    });
    expect(forbidden.status).toBe(403);
    const clash = await api.request('PUT', `/artists/${artist.id}`, {
      token: admin.token,
      body: { name: 'x', artistId: artist.id },
    });
    expect(clash.body).toEqual(validation(['artistId']));
  });

  it('answers 422 on userId when an admin links a user without the artist role', async () => {
    const artist = await makeArtist(api, admin);
    const res = await api.request('PUT', `/artists/${artist.id}`, {
      token: admin.token,
      body: { name: 'x', userId: user.id },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validation(['userId']));
  });
});

describe('PATCH /v1/artists/{artistId}', () => {
  it('changes only the given fields', async () => {
    const artist = await makeArtist(api, admin, { bio: 'kept' });
    const res = await api.request('PATCH', `/artists/${artist.id}`, {
      token: admin.token,
      body: { name: 'P' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...artist, name: 'P', updatedAt: expect.stringMatching(DATE) });
    const cleared = await api.request('PATCH', `/artists/${artist.id}`, {
      token: admin.token,
      body: { bio: null },
    });
    expect(cleared.body).toMatchObject({ name: 'P', bio: null });
  });

  it('lets an admin link and unlink an account; the linked user may edit but not relink', async () => {
    const artist = await makeArtist(api, admin);
    const account = await api.signUp('artist');
    const linked = await api.request('PATCH', `/artists/${artist.id}`, {
      token: admin.token,
      body: { userId: account.id },
    });
    expect(linked.body.userId).toBe(account.id);
    const edit = await api.request('PATCH', `/artists/${artist.id}`, {
      token: account.token,
      body: { bio: 'b' },
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ bio: 'b', userId: account.id });
    const relink = await api.request('PATCH', `/artists/${artist.id}`, {
      token: account.token,
      body: { userId: otherManager.id },
    });
    expect(relink.status).toBe(403);
    const unlinked = await api.request('PATCH', `/artists/${artist.id}`, {
      token: admin.token,
      body: { userId: null },
    });
    expect(unlinked.body.userId).toBeNull();
    // Unlinked, the account has no rights on the artist any more.
    const after = await api.request('PATCH', `/artists/${artist.id}`, {
      token: account.token,
      body: { bio: 'c' },
    });
    expect(after.status).toBe(403);
  });

  it('answers 403 to others, 404 for unknown ids, 422 for bad fields', async () => {
    for (const caller of [user, otherManager]) {
      const res = await api.request('PATCH', `/artists/${managed.id}`, {
        token: caller.token,
        body: { bio: 'x' },
      });
      expect(res.status).toBe(403);
    }
    expect(
      (await api.request('PATCH', `/artists/${randomUUID()}`, { token: admin.token, body: { bio: 'x' } }))
        .status,
    ).toBe(404);
    const bad = await api.request('PATCH', `/artists/${managed.id}`, {
      token: admin.token,
      body: { name: null, bio: 'x'.repeat(2001), nickname: 'n' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(validation(['name', 'bio', 'nickname']));
  });
});

describe('DELETE /v1/artists/{artistId}', () => {
  it('deletes as admin with 204 and no body; its songs stay, unlinked', async () => {
    const artist = await makeArtist(api, admin);
    const partner = await makeArtist(api, admin);
    const song = await makeSong(api, admin, { artistIds: [artist.id, partner.id] });
    const res = await api.request('DELETE', `/artists/${artist.id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.request('GET', `/artists/${artist.id}`, { token: admin.token })).status).toBe(404);
    const after = await api.request<Song>('GET', `/songs/${song.id}`, { token: admin.token });
    expect(after.status).toBe(200);
    expect(after.body.artistIds).toEqual([partner.id]);
    expect((await api.request('DELETE', `/artists/${artist.id}`, { token: admin.token })).status).toBe(404);
  });

  it('refuses everyone but admins with 403 (the linked user included); unknown ids are 404', async () => {
    for (const caller of [user, manager, otherManager]) {
      const res = await api.request('DELETE', `/artists/${managed.id}`, { token: caller.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('FORBIDDEN'));
    }
    for (const id of [randomUUID(), 'nope']) {
      expect((await api.request('DELETE', `/artists/${id}`, { token: user.token })).status).toBe(404);
    }
  });

  it('keeps an artist whose account is deleted, with userId null', async () => {
    const { account, artist } = await makeArtistAccount(api, admin);
    expect((await api.request('DELETE', `/users/${account.id}`, { token: account.token })).status).toBe(204);
    const after = await api.request('GET', `/artists/${artist.id}`, { token: user.token });
    expect(after.status).toBe(200);
    expect(after.body.userId).toBeNull();
  });
});

describe('GET /v1/artists/{artistId}/songs', () => {
  it('lists the artist’s songs by title, then id, with paging', async () => {
    const artist = await makeArtist(api, admin);
    const titles = ['b', 'A', 'c', 'b'];
    const songs = [];
    for (const title of titles) songs.push(await makeSong(api, admin, { title, artistIds: [artist.id] }));
    await makeSong(api, admin, { title: 'not theirs' });
    const res = await api.request('GET', `/artists/${artist.id}/songs?limit=2`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 2, total: 4 });
    expect(res.body.data[0]).toEqual(songs[1]);
    const bs = songs.filter((s) => s.title === 'b').sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(res.body.data[1].id).toBe(bs[0]!.id);
    const page2 = await api.request('GET', `/artists/${artist.id}/songs?limit=2&page=2`, {
      token: user.token,
    });
    expect(page2.body.data.map((s: Song) => s.id)).toEqual([bs[1]!.id, songs[2]!.id]);
    const past = await api.request('GET', `/artists/${artist.id}/songs?page=9`, { token: user.token });
    expect(past.body).toEqual({ data: [], pagination: { page: 9, limit: 20, total: 4 } });
  });

  it('answers 404 for an unknown artist and 400 for bad paging', async () => {
    expect((await api.request('GET', `/artists/${randomUUID()}/songs`, { token: user.token })).status).toBe(
      404,
    );
    expect(
      (await api.request('GET', `/artists/${managed.id}/songs?limit=101`, { token: user.token })).status,
    ).toBe(400);
  });
});

describe('POST and DELETE /v1/artists/{artistId}/songs/{songId}', () => {
  it('links a song after its current artists, idempotently, and unlinks it', async () => {
    const first = await makeArtist(api, admin);
    const second = await makeArtist(api, admin);
    const song = await makeSong(api, admin, { artistIds: [first.id] });
    const link = await api.request('POST', `/artists/${second.id}/songs/${song.id}`, { token: admin.token });
    expect(link.status).toBe(204);
    expect(link.text).toBe('');
    expect(
      (await api.request('POST', `/artists/${second.id}/songs/${song.id}`, { token: admin.token })).status,
    ).toBe(204);
    const linked = await api.request<Song>('GET', `/songs/${song.id}`, { token: user.token });
    expect(linked.body.artistIds).toEqual([first.id, second.id]);
    const listed = await api.request('GET', `/artists/${second.id}/songs`, { token: user.token });
    expect(listed.body.data.map((s: Song) => s.id)).toEqual([song.id]);

    const unlink = await api.request('DELETE', `/artists/${first.id}/songs/${song.id}`, {
      token: admin.token,
    });
    expect(unlink.status).toBe(204);
    expect(
      (await api.request<Song>('GET', `/songs/${song.id}`, { token: user.token })).body.artistIds,
    ).toEqual([second.id]);
    const again = await api.request('DELETE', `/artists/${first.id}/songs/${song.id}`, {
      token: admin.token,
    });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error('NOT_FOUND'));
  });

  it('lets the artist’s linked user manage its links; others get 403', async () => {
    const song = await makeSong(api, admin);
    const res = await api.request('POST', `/artists/${managed.id}/songs/${song.id}`, {
      token: manager.token,
    });
    expect(res.status).toBe(204);
    for (const caller of [user, otherManager]) {
      for (const method of ['POST', 'DELETE']) {
        const denied = await api.request(method, `/artists/${managed.id}/songs/${song.id}`, {
          token: caller.token,
        });
        expect(denied.status, `${method}`).toBe(403);
        expect(denied.body).toEqual(error('FORBIDDEN'));
      }
    }
    const unlink = await api.request('DELETE', `/artists/${managed.id}/songs/${song.id}`, {
      token: manager.token,
    });
    expect(unlink.status).toBe(204);
  });

  it('answers 404 for an unknown or malformed artist or song, even to those not allowed', async () => {
    const song = await makeSong(api, admin);
    for (const method of ['POST', 'DELETE']) {
      for (const path of [
        `/artists/${randomUUID()}/songs/${song.id}`,
        `/artists/${managed.id}/songs/${randomUUID()}`,
        `/artists/${managed.id}/songs/not-a-uuid`,
      ]) {
        for (const caller of [admin, user]) {
          const res = await api.request(method, path, { token: caller.token });
          expect(res.status, `${method} ${path}`).toBe(404);
        }
      }
    }
  });

  it('has no PUT: 405 with Allow', async () => {
    const res = await api.request('PUT', `/artists/${managed.id}/songs/${randomUUID()}`, {
      token: admin.token,
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, DELETE');
    expect(res.body).toEqual(error('METHOD_NOT_ALLOWED'));
  });
});
