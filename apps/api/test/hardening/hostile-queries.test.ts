import { describe, expect, it } from 'vitest';
import { json, useHostileApi } from './hostile-rig';

/**
 * Hostile numbers and query strings, hand-picked: huge, fractional and negative numbers in
 * bodies, malformed and out-of-range paging, a page far past the end, and SQL and LIKE
 * metacharacters in search. Never a 5xx; the statuses on /v1 and /trpc are pinned.
 */

const { h, refused } = useHostileApi();

describe('numbers and query strings', () => {
  it('refuses huge, fractional and negative numbers in bodies with 422', async () => {
    for (const [field, value] of [
      ['duration', '1e400'],
      ['duration', '1e308'],
      ['duration', '-1'],
      ['duration', '0'],
      ['duration', '86401'],
      ['duration', '1.5'],
      ['duration', '9007199254740993'],
      ['duration', '"120"'],
      ['releaseYear', '99999999999999999999'],
      ['releaseYear', '-2147483649'],
      ['releaseYear', '2147483648'],
      ['releaseYear', '999'],
    ] as const) {
      const rawBody =
        field === 'duration'
          ? `{"title":"n","duration":${value}}`
          : `{"title":"n","duration":120,"${field}":${value}}`;
      const res = await refused(
        h.api.request('POST', '/songs', { token: h.admin.token, rawBody, headers: json }),
        422,
        `${field}=${value}`,
      );
      const errors = (res.body as { errors: Array<{ field: string }> }).errors;
      expect(new Set(errors.map((e) => e.field))).toEqual(new Set([field]));
      await refused(
        h.trpc.request('POST', '/songs.create', { token: h.admin.token, rawBody, headers: json }),
        422,
        `trpc ${field}=${value}`,
        'trpc',
      );
    }
  });

  it('answers malformed, negative and out-of-range paging with 400 on /v1 and 422 on /trpc', async () => {
    const queries = [
      'limit=-1',
      'limit=0',
      'limit=101',
      'page=0',
      'page=-5',
      'page=-0',
      'page=1.5',
      'page=1e3',
      'limit=0x10',
      'limit=%205',
      'limit=5abc',
      'limit=',
      'page=',
      'page=99999999999999999999',
      'page=1&page=2',
      'limit[]=5',
      'page=Infinity',
      'page=NaN',
    ];
    for (const list of [
      '/songs',
      '/artists',
      '/playlists',
      '/users',
      `/artists/${h.artistId}/songs`,
      `/playlists/${h.playlistId}/songs`,
    ]) {
      for (const query of queries) {
        if (query === 'limit[]=5') {
          // An unknown parameter name: ignored, like any other unknown query parameter.
          expect((await h.api.request('GET', `${list}?${query}`, { token: h.admin.token })).status).toBe(200);
          continue;
        }
        await refused(
          h.api.request('GET', `${list}?${query}`, { token: h.admin.token }),
          400,
          `${list}?${query}`,
        );
      }
    }
    // Filters that name nothing valid are refused the same way.
    for (const path of [
      '/users?role=superuser',
      '/playlists?userId=not-a-uuid',
      '/songs?artistId=not-a-uuid',
      '/songs?search=%00',
    ]) {
      await refused(h.api.request('GET', path, { token: h.admin.token }), 400, path);
    }
    for (const input of [
      { limit: -1 },
      { page: 0 },
      { limit: 1e308 },
      { page: 2 ** 53 + 2 },
      { limit: '5' },
      { page: null },
      { limit: [5] },
    ]) {
      await refused(
        h.trpc.call('songs.list', input, h.user.token),
        422,
        `trpc ${JSON.stringify(input)}`,
        'trpc',
      );
    }
  });

  it('keeps every error message within 1,000 characters, whatever the input (version 1.2)', async () => {
    const unknown = Array.from({ length: 60 }, (_, i) => `unknown_field_${i}`).join(',');
    const sorts = [unknown, `${'x'.repeat(199)}`, Array.from({ length: 60 }, () => 'title').join(',')];
    for (const sort of sorts) {
      const v1 = await refused(
        h.api.request('GET', `/songs?sort=${encodeURIComponent(sort)}`, { token: h.user.token }),
        400,
        `sort ${sort.slice(0, 20)}`,
      );
      expect((v1.body as { message: string }).message.length).toBeLessThanOrEqual(1000);
      const rpc = await refused(h.trpc.call('songs.list', { sort }, h.user.token), 422, 'trpc sort', 'trpc');
      expect((rpc.body as { error: { message: string } }).error.message.length).toBeLessThanOrEqual(1000);
    }
    // 60 unknown fields are still named, as many as fit, and the message says so.
    const named = await h.api.request('GET', `/songs?sort=${unknown}`, { token: h.user.token });
    expect((named.body as { message: string }).message).toContain('unknown_field_0');
    // A body with a thousand bad fields: the message and every field's message stay bounded.
    const body = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${'y'.repeat(300)}${i}`, i]));
    const many = await refused(
      h.api.request('POST', '/playlists', { token: h.user.token, body: { name: 'x', ...body } }),
      422,
      'many unknown keys',
    );
    const answer = many.body as { message: string; errors: Array<{ field: string; message: string }> };
    expect(answer.message.length).toBeLessThanOrEqual(1000);
    for (const error of answer.errors) expect(error.message.length).toBeLessThanOrEqual(1000);
  });

  it('answers a page far past the end with an empty page and the true total', async () => {
    for (const page of ['9999999999999999', '92233720368547758']) {
      const res = await h.api.request('GET', `/songs?page=${page}&limit=100`, { token: h.user.token });
      expect(res.status, page).toBeLessThan(500);
      if (res.status === 200) {
        expect(res.body.data).toEqual([]);
        expect(res.body.pagination.total).toBeGreaterThan(0);
      }
    }
    const res = await h.trpc.call('songs.list', { page: Number.MAX_SAFE_INTEGER, limit: 100 }, h.user.token);
    expect(res.status).toBeLessThan(500);
  });

  it('treats SQL and LIKE metacharacters in search as text, never as patterns', async () => {
    const tag = `m${Date.now().toString(36)}`;
    const titles = [
      `${tag} 100% pure`,
      `${tag} snake_case`,
      `${tag} back\\slash`,
      `${tag} plain`,
      `${tag} it's`,
    ];
    for (const title of titles) {
      expect(
        (
          await h.api.request('POST', '/songs', {
            token: h.admin.token,
            body: { title, duration: 100, genre: '%' },
          })
        ).status,
      ).toBe(201);
    }
    const search = async (text: string) => {
      const res = await h.api.request('GET', `/songs?limit=100&search=${encodeURIComponent(text)}`, {
        token: h.user.token,
      });
      expect(res.status, text).toBe(200);
      return (res.body.data as Array<{ title: string }>)
        .map((s) => s.title)
        .filter((t) => t.startsWith(tag))
        .sort();
    };
    expect(await search('%')).toEqual([`${tag} 100% pure`]);
    expect(await search('_')).toEqual([`${tag} snake_case`]);
    expect(await search('\\')).toEqual([`${tag} back\\slash`]);
    expect(await search("'")).toEqual([`${tag} it's`]);
    // Between words they separate words (search folds punctuation), never acting as wildcards.
    expect(await search(`${tag} %`)).toEqual([...titles].sort());
    expect(await search(`${tag}%plain`)).toEqual([`${tag} plain`]);
    expect(await search(`${tag} _lain`)).toEqual([`${tag} plain`]);
    // Punctuation alone is looked for as written, never as a pattern.
    for (const text of ['\\%', '%%', '.*', '\\\\', '"', '%_']) {
      expect(await search(text), text).toEqual([]);
    }
    // SQL in a term is words to look for, nothing more: answered, and the table still there.
    for (const text of ["' or 1=1 --", "'; drop table songs; --", '[a-z]', '$1', 'ʼ']) await search(text);
    expect(await search(`${tag} plain`)).toEqual([`${tag} plain`]);
    // The genre filter is an equality, not a pattern: '%' matches the genre '%' only.
    const genre = await h.api.request('GET', `/songs?limit=100&genre=${encodeURIComponent('_')}`, {
      token: h.user.token,
    });
    expect(genre.status).toBe(200);
    expect(genre.body.pagination.total).toBe(0);
    const artists = await h.api.request('GET', `/artists?search=${encodeURIComponent('%')}`, {
      token: h.user.token,
    });
    expect(artists.status).toBe(200);
    expect(artists.body.pagination.total).toBe(0);
    expect((await h.trpc.call('songs.list', { search: '%', limit: 100 }, h.user.token)).status).toBe(200);
  });
});
