import { describe, expect, it } from 'vitest';
import { json, useHostileApi } from './hostile-rig';

/**
 * Hostile text, hand-picked: NUL and other control characters (PostgreSQL refuses NUL in text,
 * so it must be refused before the database), invalid UTF-8 in bodies, paths and query strings,
 * and 5,000- and 150,000-deep JSON (a recursive parser or validator overflows its stack).
 * Never a 5xx; the status each transport answers today is pinned; refusals write nothing.
 */

const { h, refused } = useHostileApi();

/** A new playlist with an acceptable name and this description must be refused with 422. */
const refusedDescription = (description: string, what: string) =>
  refused(
    h.api.request('POST', '/playlists', { token: h.user.token, body: { name: 'ok', description } }),
    422,
    what,
  );

describe('text', () => {
  it('refuses NUL and other control characters in text with 422, never a database error', async () => {
    for (const name of ['a\u0000b', '\u0000', 'x\u001b[31m', 'a\u007f']) {
      const v1 = await refused(
        h.api.request('POST', '/playlists', { token: h.user.token, body: { name } }),
        422,
        `v1 ${JSON.stringify(name)}`,
      );
      expect((v1.body as { errors: unknown }).errors).toEqual([
        { field: 'name', message: expect.any(String) },
      ]);
      await refused(
        h.trpc.call('playlists.create', { name }, h.user.token),
        422,
        `trpc ${JSON.stringify(name)}`,
        'trpc',
      );
    }
    await refusedDescription('a\u0000b', 'description');
    await refused(
      h.api.request('POST', '/auth/login', { body: { email: 'a\u0000@example.com', password: 'x\u0000' } }),
      422,
      'login',
    );
    // A password is hashed, never stored: NUL is just another character in it, not a terminator.
    const email = `nul-${Date.now()}@example.com`;
    const signUp = await h.api.request('POST', '/users', {
      body: { username: 'n', email, password: 'pass\u0000word' },
    });
    expect(signUp.status).toBe(201);
    await refused(
      h.api.request('POST', '/auth/login', { body: { email, password: 'pass' } }),
      401,
      'truncated',
    );
    expect(
      (await h.api.request('POST', '/auth/login', { body: { email, password: 'pass\u0000word' } })).status,
    ).toBe(200);
    // In a query string: 400; in a path id: 404.
    await refused(h.api.request('GET', '/songs?search=%00', { token: h.user.token }), 400, 'query');
    await refused(h.api.request('GET', '/songs?genre=a%00b', { token: h.user.token }), 400, 'genre');
    await refused(h.api.request('GET', '/songs/%00', { token: h.user.token }), 404, 'path');
    await refused(
      h.api.request('DELETE', `/playlists/${h.playlistId}/songs/%00`, { token: h.user.token }),
      404,
      'path 2',
    );
    await refused(h.trpc.call('songs.get', { songId: '\u0000' }, h.user.token), 404, 'trpc path', 'trpc');
    await refused(h.trpc.call('songs.list', { search: '\u0000' }, h.user.token), 422, 'trpc query', 'trpc');
  });

  it('refuses C1 controls in every text field, and format characters in usernames (version 1.2)', async () => {
    // U+0085 (next line) and U+009B (a terminal's CSI) are C1 controls; U+202E (right-to-left
    // override) and U+200B (zero width space) are format characters: "by …" look-alikes.
    for (const title of ['a\u0085b', 'x\u009b31m', '\u0080']) {
      await refused(
        h.api.request('POST', '/songs', { token: h.admin.token, body: { title, duration: 60 } }),
        422,
        `title ${JSON.stringify(title)}`,
      );
      await refused(
        h.trpc.call('songs.create', { title, duration: 60 }, h.admin.token),
        422,
        `trpc title ${JSON.stringify(title)}`,
        'trpc',
      );
    }
    await refusedDescription('line\u0085next', 'description with a C1 control');
    for (const username of ['ad\u202Emin', 'a\u200Bb', '\u2066x\u2069', 'x\u0085']) {
      const body = {
        username,
        email: `cf-${Date.now()}-${username.length}@example.com`,
        password: 'a-password',
      };
      const v1 = await refused(
        h.api.request('POST', '/users', { body }),
        422,
        `username ${JSON.stringify(username)}`,
      );
      expect((v1.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([
        'username',
      ]);
      await refused(
        h.trpc.call('users.create', body),
        422,
        `trpc username ${JSON.stringify(username)}`,
        'trpc',
      );
      await refused(
        h.api.request('PUT', `/users/${h.user.user.id}`, {
          token: h.user.token,
          body: { username, email: h.user.user.email, password: 'unused-here' },
        }),
        422,
        `PUT username ${JSON.stringify(username)}`,
      );
    }
    // Tab and newline stay allowed where they were (a bio, a description); emoji with a zero
    // width joiner stay allowed in titles (only usernames refuse format characters).
    const ok = await h.api.request('POST', '/songs', {
      token: h.admin.token,
      body: { title: 'Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}', duration: 60 },
    });
    expect(ok.status).toBe(201);
    const bio = await h.api.request('PATCH', `/artists/${h.artistId}`, {
      token: h.admin.token,
      body: { bio: 'line one\n\tline two' },
    });
    expect(bio.status).toBe(200);
  });

  it('refuses invalid UTF-8: 400 in a /v1 body, 404 in a path, never 5xx anywhere', async () => {
    const bad = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    await refused(
      h.api.request('POST', '/playlists', { token: h.user.token, rawBody: bad, headers: json }),
      400,
      'v1 body',
    );
    const viaTrpc = await h.trpc.request('POST', '/playlists.create', {
      token: h.user.token,
      rawBody: bad,
      headers: json,
    });
    expect(viaTrpc.status).toBeLessThan(500);
    await refused(h.api.request('GET', '/songs/%ff%fe', { token: h.user.token }), 404, 'path');
    await refused(h.api.request('GET', '/%c3', { token: h.user.token }), 404, 'route');
    for (const query of ['search=%ff', 'search=%c3%28', 'genre=%ed%a0%80', 'page=%ff']) {
      const res = await h.api.request('GET', `/songs?${query}`, { token: h.user.token });
      expect(res.status, query).toBeLessThan(500);
    }
    // A path that is not even valid percent-encoding.
    await refused(h.api.request('GET', '/songs/%zz', { token: h.user.token }), 404, 'bad escape');
    await refused(h.api.request('GET', '/songs/%', { token: h.user.token }), 404, 'lone percent');
  });

  it('refuses 5,000-deep (and 150,000-deep) JSON with a 400 or 422 on /v1, a 422 on /trpc', async () => {
    for (const depth of [5_000, 150_000]) {
      const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      await refused(
        h.api.request('POST', '/playlists', { token: h.user.token, rawBody: arrays, headers: json }),
        400,
        `v1 arrays ${depth}`,
      );
      await refused(
        h.api.request('POST', '/playlists', { token: h.user.token, rawBody: objects, headers: json }),
        422,
        `v1 objects ${depth}`,
      );
      await refused(
        h.api.request('POST', '/playlists', {
          token: h.user.token,
          rawBody: `{"name":${arrays}}`,
          headers: json,
        }),
        422,
        `v1 in a field ${depth}`,
      );
      await refused(
        h.api.request('PATCH', `/songs/${h.songId}`, {
          token: h.admin.token,
          rawBody: `{"artistIds":${arrays}}`,
          headers: json,
        }),
        422,
        `v1 in an array field ${depth}`,
      );
      for (const rawBody of [arrays, objects, `{"name":${arrays}}`]) {
        await refused(
          h.trpc.request('POST', '/playlists.create', { token: h.user.token, rawBody, headers: json }),
          422,
          `trpc ${depth}`,
          'trpc',
        );
      }
    }
    // In a query string the header limit comes first: 2,000 levels still fit in 16 KiB.
    const deepQuery = encodeURIComponent(`{"search":${'['.repeat(2_000)}${']'.repeat(2_000)}}`);
    await refused(
      h.trpc.request('GET', `/songs.list?input=${deepQuery}`, { token: h.user.token }),
      422,
      'trpc query',
      'trpc',
    );
  });
});
