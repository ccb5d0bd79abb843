import { uuidv7 } from '@music/db';
import { describe, expect, it } from 'vitest';
import {
  catalogueWorld,
  error,
  makeArtist,
  makeSong,
  type Song,
  tag,
  validation,
} from '../support/catalogue';
import { createClient } from '../support/harness';

/**
 * Reading many at once over HTTP (the rules are in the procedure tests): `ids=a,b`,
 * `expand=artists`, cursor mode (`cursor=`, `nextCursor`, its `Link`), and a list's weak ETag
 * with its 304, on /v1, and the same inputs over /trpc.
 */

const w = catalogueWorld();
const get = (path: string, headers: Record<string, string> = {}) =>
  w.api.request('GET', path, { token: w.user.token, headers });

async function twoSongs() {
  const t = tag();
  const artist = await makeArtist(w.api, w.admin, { name: `${t} artist` });
  const first = await makeSong(w.api, w.admin, { title: `${t} 1`, artistIds: [artist.id] });
  const second = await makeSong(w.api, w.admin, { title: `${t} 2`, artistIds: [] });
  return { t, artist, first, second };
}

describe('GET /v1/songs?ids and expand=artists', () => {
  it('answers the named songs; unknown ids are absent', async () => {
    const { first, second } = await twoSongs();
    const res = await get(`/songs?ids=${second.id},${first.id.toUpperCase()},${uuidv7()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [first, second], pagination: { page: 1, limit: 20, total: 2 } });
  });

  it('adds the artists with expand=artists, on the detail and the lists; 422 on expand otherwise', async () => {
    const { artist, first, second } = await twoSongs();
    const detail = await get(`/songs/${first.id}?expand=artists`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({ ...first, artists: [artist] });
    const listed = await get(`/songs?ids=${first.id},${second.id}&expand=artists`);
    expect(listed.body.data).toEqual([
      { ...first, artists: [artist] },
      { ...second, artists: [] },
    ]);
    const ofArtist = await get(`/artists/${artist.id}/songs?expand=artists`);
    expect(ofArtist.body.data).toEqual([{ ...first, artists: [artist] }]);
    const plain = await get(`/songs/${first.id}`);
    expect(plain.text).toBe(JSON.stringify(first));
    for (const path of [`/songs/${first.id}?expand=album`, '/songs?expand=']) {
      const res = await get(path);
      expect(res.status, path).toBe(422);
      expect(res.body).toEqual(validation(['expand']));
    }
  });

  it('answers ids on /playlists and /users as on /artists', async () => {
    const mine = await w.api.request('POST', '/playlists', { token: w.user.token, body: { name: 'mine' } });
    const res = await get(`/playlists?ids=${mine.body.id},${uuidv7()}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([mine.body.id]);
    const users = await w.api.request('GET', `/users?ids=${w.user.id},${uuidv7()}`, { token: w.admin.token });
    expect(users.status).toBe(200);
    expect(users.body.data.map((u: { id: string }) => u.id)).toEqual([w.user.id]);
    expect((await get(`/users?ids=${w.user.id}`)).body).toEqual(error('FORBIDDEN'));
  });
});

describe('GET /v1/songs?cursor=', () => {
  it('walks by nextCursor and Link rel="next" with no total, then null at the end', async () => {
    const { t } = await twoSongs();
    await makeSong(w.api, w.admin, { title: `${t} 3` });
    const first = await get(`/songs?search=${t}&limit=2&cursor=`);
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ limit: 2, nextCursor: expect.any(String) });
    const next = first.body.pagination.nextCursor as string;
    const link = first.headers.get('link')!;
    expect(link).toContain('rel="first"');
    const nextLink = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(new URL(nextLink).searchParams.get('cursor')).toBe(next);
    const second = await get(`/songs?search=${t}&limit=2&cursor=${encodeURIComponent(next)}`);
    expect(second.body.data.map((s: Song) => s.title)).toEqual([`${t} 3`]);
    expect(second.body.pagination).toEqual({ limit: 2, nextCursor: null });
    expect(second.headers.get('link')).not.toContain('rel="next"');
  });

  it('is 422 on cursor for a tampered cursor and 422 on page with page and cursor', async () => {
    const { t } = await twoSongs();
    const first = await get(`/songs?search=${t}&limit=1&cursor=`);
    const cursor = first.body.pagination.nextCursor as string;
    const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    for (const bad of [tampered, 'garbage', `${cursor}x`]) {
      const res = await get(`/songs?search=${t}&cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(validation(['cursor']));
    }
    const both = await get(`/songs?page=2&cursor=`);
    expect(both.status).toBe(422);
    expect(both.body).toEqual(validation(['page']));
  });
});

describe('a list’s weak ETag', () => {
  it('is W/"…", answers If-None-Match with an empty 304, and 200 again after a change', async () => {
    const { t, first } = await twoSongs();
    const path = `/songs?search=${t}`;
    const res = await get(path);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const again = await get(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // Weak comparison: the tag without W/ matches too.
    expect((await get(path, { 'if-none-match': etag.slice(2) })).status).toBe(304);
    await w.api.request('PATCH', `/songs/${first.id}`, { token: w.admin.token, body: { title: `${t} 1b` } });
    const changed = await get(path, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.data.map((s: Song) => s.title)).toContain(`${t} 1b`);
  });

  it('is on every list, cursor mode included', async () => {
    for (const path of ['/artists', '/playlists', '/profiles', '/genres', '/songs?cursor=']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const etag = res.headers.get('etag')!;
      expect(etag, path).toMatch(/^W\//);
      expect((await get(path, { 'if-none-match': etag })).status, path).toBe(304);
    }
  });
});

describe('over /trpc', () => {
  const trpc = () => createClient(w.api.url.replace(/\/v1$/, '/trpc'));
  const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));

  it('takes ids, expand and cursor the same way, and the same 422s', async () => {
    const { t, artist, first, second } = await twoSongs();
    const ids = `${first.id},${second.id}`;
    const res = await trpc().request(
      'GET',
      `/songs.list?input=${input({ ids, expand: 'artists', cursor: '', limit: 1 })}`,
      {
        token: w.user.token,
      },
    );
    expect(res.status).toBe(200);
    const page = res.body.result.data;
    expect(page.data).toEqual([{ ...first, artists: [artist] }]);
    expect(page.pagination).toEqual({ limit: 1, nextCursor: expect.any(String) });
    const bad = await trpc().request('GET', `/songs.list?input=${input({ search: t, cursor: 'nope' })}`, {
      token: w.user.token,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.data).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'cursor' }] });
  });
});
