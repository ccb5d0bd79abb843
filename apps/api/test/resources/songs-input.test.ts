import { backdate } from '@music/db/testing';
import { describe, expect, it } from 'vitest';
import { catalogueWorld, makeArtist, makeSong, type Song, tag, validation } from '../support/catalogue';

const w = catalogueWorld();

const COMPOSED = 'Hopp\u00edpolla';
const DECOMPOSED = 'Hoppi\u0301polla';

describe('songs: text is stored and searched in NFC', () => {
  it('finds a composed title by a decomposed search term, and the other way round', async () => {
    const t = tag();
    const composed = await makeSong(w.api, w.admin, { title: `${COMPOSED} ${t}` });
    const search = (term: string) =>
      w.api.request('GET', `/songs?search=${encodeURIComponent(term)}`, { token: w.user.token });
    for (const term of [`${DECOMPOSED} ${t}`, `${COMPOSED} ${t}`, `i\u0301polla ${t}`]) {
      const res = await search(term);
      expect(res.status).toBe(200);
      expect(
        res.body.data.map((s: Song) => s.id),
        JSON.stringify(term),
      ).toEqual([composed.id]);
    }
  });

  it('stores a decomposed title, album and genre composed', async () => {
    const t = tag();
    const made = await makeSong(w.api, w.admin, {
      title: `${DECOMPOSED} ${t}`,
      album: `Ágætis byrjun`.normalize('NFD'),
      genre: 'Post-rokk é'.normalize('NFD'),
    });
    expect(made).toMatchObject({ title: `${COMPOSED} ${t}`, album: 'Ágætis byrjun', genre: 'Post-rokk é' });
    const stored = await w.api.database.db
      .selectFrom('songs')
      .select(['title', 'album', 'genre'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ title: `${COMPOSED} ${t}`, album: 'Ágætis byrjun', genre: 'Post-rokk é' });
    const patched = await w.api.request('PATCH', `/songs/${made.id}`, {
      token: w.admin.token,
      body: { album: `${DECOMPOSED}` },
    });
    expect(patched.body.album).toBe(COMPOSED);
  });

  it('answers 422 on the field holding a lone surrogate', async () => {
    const song = await makeSong(w.api, w.admin);
    const cases: Array<[string, string, string, string[]]> = [
      ['POST', '/songs', '{"title":"a\\ud800b","duration":1}', ['title']],
      ['POST', '/songs', '{"title":"ok","album":"\\udc00","duration":1}', ['album']],
      ['PATCH', `/songs/${song.id}`, '{"title":"\\ud800"}', ['title']],
      ['PATCH', `/songs/${song.id}`, '{"genre":"x\\ud83d"}', ['genre']],
    ];
    for (const [method, path, rawBody, fields] of cases) {
      const res = await w.api.request(method, path, {
        token: w.admin.token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, rawBody).toBe(422);
      expect(res.body).toEqual(validation(fields));
    }
    // A surrogate pair is fine.
    expect((await makeSong(w.api, w.admin, { title: 'Emoji \ud83c\udfb5' })).title).toBe('Emoji 🎵');
    expect((await w.api.request('GET', `/songs/${song.id}`, { token: w.user.token })).body).toEqual(song);
  });
});

describe('songs: UUIDs in any letter case', () => {
  it('takes upper-case ids in the path, the artistId filter and artistIds, and answers lower-case', async () => {
    const artist = await makeArtist(w.api, w.admin);
    const other = await makeArtist(w.api, w.admin);
    const created = await w.api.request<Song>('POST', '/songs', {
      token: w.admin.token,
      body: { title: 'Upper', duration: 10, artistIds: [artist.id.toUpperCase()] },
    });
    expect(created.status).toBe(201);
    expect(created.body.artistIds).toEqual([artist.id]);
    const upper = created.body.id.toUpperCase();

    const got = await w.api.request('GET', `/songs/${upper}`, { token: w.user.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const patched = await w.api.request<Song>('PATCH', `/songs/${upper}`, {
      token: w.admin.token,
      body: { artistIds: [other.id.toUpperCase(), artist.id] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, artistIds: [other.id, artist.id] });

    const filtered = await w.api.request('GET', `/songs?artistId=${other.id.toUpperCase()}`, {
      token: w.user.token,
    });
    expect(filtered.body.data.map((s: Song) => s.id)).toEqual([created.body.id]);

    // Two spellings of one id are a repeat.
    const repeated = await w.api.request('PATCH', `/songs/${upper}`, {
      token: w.admin.token,
      body: { artistIds: [artist.id, artist.id.toUpperCase()] },
    });
    expect(repeated.body).toEqual(validation(['artistIds.1']));
    const deleted = await w.api.request('DELETE', `/songs/${upper}`, { token: w.admin.token });
    expect(deleted.status).toBe(204);
    expect((await w.api.request('GET', `/songs/${created.body.id}`, { token: w.user.token })).status).toBe(
      404,
    );
  });
});

describe('PATCH /v1/songs/{songId} that changes nothing', () => {
  it('leaves updatedAt and the ETag as they were; a change moves them', async () => {
    const fields = { title: 'Steady', album: 'A', genre: 'G', duration: 42, releaseYear: 1990 };
    const song = await makeSong(w.api, w.admin, { ...fields, artistIds: [w.managed.id, w.otherArtist.id] });
    await backdate(w.api.database.db, 'songs', song.id);
    const before = await w.api.request('GET', `/songs/${song.id}`, { token: w.user.token });
    expect(before.body.updatedAt).toBe('2020-01-01T00:00:00Z');
    const bodies = [{}, fields, { artistIds: [w.managed.id, w.otherArtist.id] }, { title: 'Steady ' }];
    for (const body of bodies) {
      const res = await w.api.request('PATCH', `/songs/${song.id}`, { token: w.manager.token, body });
      expect(res.status).toBe(200);
      expect(res.body, JSON.stringify(body)).toEqual(before.body);
      expect(res.headers.get('etag')).toBe(before.headers.get('etag'));
    }
    const after = await w.api.request('GET', `/songs/${song.id}`, { token: w.user.token });
    expect(after.body).toEqual(before.body);
    const changed = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.manager.token,
      body: { releaseYear: null },
    });
    expect(changed.body.updatedAt).not.toBe('2020-01-01T00:00:00Z');
  });
});

describe('the Song and Genre schemas in /v1/openapi.json', () => {
  it('show the bounds the input enforces', async () => {
    const doc = await w.api.request('GET', '/openapi.json');
    const { Song: song, Artist: artist, Genre: genre } = doc.body.components.schemas;
    expect(song.properties.title).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(song.properties.duration).toMatchObject({ minimum: 1, maximum: 86400 });
    expect(JSON.stringify(song.properties.releaseYear)).toMatch(/"minimum":1000.*"maximum":9999/);
    expect(JSON.stringify(song.properties.album)).toContain('"maxLength":200');
    expect(JSON.stringify(song.properties.genre)).toContain('"maxLength":50');
    expect(artist.properties.name).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(JSON.stringify(artist.properties.bio)).toContain('"maxLength":2000');
    expect(genre.properties.name).toMatchObject({ minLength: 1, maxLength: 50 });
  });
});
