import { describe, expect, it } from 'vitest';
import { catalogueWorld, error, makeSong, type Song, validation } from '../support/catalogue';

const w = catalogueWorld();

/** A fresh, well-formed ISRC (registrant "TST", year 26, a random number). */
const isrc = () => `QZTST26${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;

describe('songs: isrc', () => {
  it('is null unless given; stored as its 12 characters, upper case, hyphens and spaces dropped', async () => {
    const plain = await makeSong(w.api, w.admin);
    expect(plain.isrc).toBeNull();
    const code = isrc();
    const written =
      `${code.slice(0, 2)}-${code.slice(2, 5)}-${code.slice(5, 7)}-${code.slice(7)}`.toLowerCase();
    const made = await makeSong(w.api, w.admin, { isrc: ` ${written} ` });
    expect(made.isrc).toBe(code);
    const read = await w.api.request<Song>('GET', `/songs/${made.id}`, { token: w.user.token });
    expect(read.body.isrc).toBe(code);
  });

  it('is set, changed and cleared by PATCH; an unchanged one writes nothing', async () => {
    const song = await makeSong(w.api, w.admin);
    const [first, second] = [isrc(), isrc()];
    const patch = (body: object) =>
      w.api.request<Song>('PATCH', `/songs/${song.id}`, { token: w.admin.token, body });
    expect((await patch({ isrc: first })).body.isrc).toBe(first);
    const again = await patch({ isrc: first.toLowerCase() });
    expect(again.body.isrc).toBe(first);
    expect(again.headers.get('etag')).toBe((await patch({ isrc: first })).headers.get('etag'));
    expect((await patch({ isrc: second })).body.isrc).toBe(second);
    expect((await patch({ isrc: null })).body.isrc).toBeNull();
  });

  it('is unique: another song with it is 409, on create and on PATCH; the first keeps it', async () => {
    const code = isrc();
    const holder = await makeSong(w.api, w.admin, { isrc: code });
    const other = await makeSong(w.api, w.admin);
    const created = await w.api.request('POST', '/songs', {
      token: w.admin.token,
      body: { title: 'Twin', duration: 60, isrc: code.toLowerCase() },
    });
    expect(created.status).toBe(409);
    expect(created.body).toEqual(error('CONFLICT'));
    const patched = await w.api.request('PATCH', `/songs/${other.id}`, {
      token: w.admin.token,
      body: { isrc: code },
    });
    expect(patched.status).toBe(409);
    expect(
      (await w.api.request<Song>('GET', `/songs/${other.id}`, { token: w.admin.token })).body.isrc,
    ).toBeNull();
    // The same song keeping its own ISRC is no conflict; clearing it frees the code.
    expect(
      (await w.api.request('PATCH', `/songs/${holder.id}`, { token: w.admin.token, body: { isrc: code } }))
        .status,
    ).toBe(200);
    await w.api.request('PATCH', `/songs/${holder.id}`, { token: w.admin.token, body: { isrc: null } });
    expect(
      (await w.api.request('PATCH', `/songs/${other.id}`, { token: w.admin.token, body: { isrc: code } }))
        .status,
    ).toBe(200);
  });

  it('answers 422 on isrc for a malformed one, and writes nothing', async () => {
    const song = await makeSong(w.api, w.admin);
    for (const bad of [
      '',
      'U11234567890',
      'USRC1760783',
      'USRC176078399',
      'USRC17607839X',
      'ÜSRC17607839',
      12,
    ]) {
      const res = await w.api.request('POST', '/songs', {
        token: w.admin.token,
        body: { title: 'Bad code', duration: 60, isrc: bad },
      });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body).toEqual(validation(['isrc']));
      const patched = await w.api.request('PATCH', `/songs/${song.id}`, {
        token: w.admin.token,
        body: { isrc: bad },
      });
      expect(patched.status, JSON.stringify(bad)).toBe(422);
    }
    expect(
      (await w.api.request<Song>('GET', `/songs/${song.id}`, { token: w.admin.token })).body.isrc,
    ).toBeNull();
  });

  it('finds the song by ?isrc= (written either way); a malformed one is 400', async () => {
    const code = isrc();
    const song = await makeSong(w.api, w.admin, { isrc: code });
    await makeSong(w.api, w.admin, { isrc: isrc() });
    for (const query of [code, code.toLowerCase(), `${code.slice(0, 5)}-${code.slice(5)}`]) {
      const res = await w.api.request<{ data: Song[]; pagination: { total: number } }>(
        'GET',
        `/songs?isrc=${encodeURIComponent(query)}`,
        { token: w.user.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.map((s) => s.id)).toEqual([song.id]);
      expect(res.body.pagination.total).toBe(1);
    }
    const cursor = await w.api.request<{ data: Song[] }>('GET', `/songs?isrc=${code}&cursor=`, {
      token: w.user.token,
    });
    expect(cursor.body.data.map((s) => s.id)).toEqual([song.id]);
    expect((await w.api.request('GET', '/songs?isrc=nope', { token: w.user.token })).status).toBe(400);
  });
});
