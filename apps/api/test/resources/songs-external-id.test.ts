import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { catalogueWorld, error, makeSong, type Song, validation } from '../support/catalogue';

/** `externalId`: the id a song has elsewhere (what a bulk import updates by); optional, unique. */

const w = catalogueWorld();
const externalId = () => `LBL-${randomBytes(4).toString('hex')}`;

describe('songs: externalId', () => {
  it('is null unless given; kept as sent (trimmed); set, changed and cleared by PATCH', async () => {
    const plain = await makeSong(w.api, w.admin);
    expect(plain.externalId).toBeNull();
    const id = externalId();
    const made = await makeSong(w.api, w.admin, { externalId: ` ${id} ` });
    expect(made.externalId).toBe(id);
    const patch = (body: object) =>
      w.api.request<Song>('PATCH', `/songs/${made.id}`, { token: w.admin.token, body });
    const unchanged = await patch({ externalId: id });
    expect(unchanged.body.updatedAt).toBe(made.updatedAt);
    const next = externalId();
    expect((await patch({ externalId: next })).body.externalId).toBe(next);
    expect((await patch({ externalId: null })).body.externalId).toBeNull();
    const audit = await w.api.request('GET', `/audit-events?targetId=${made.id}`, { token: w.admin.token });
    expect(audit.body.data.map((e: { changes: Record<string, unknown> }) => e.changes.externalId)).toEqual([
      { before: next, after: null },
      { before: id, after: next },
      { before: null, after: id },
    ]);
  });

  it('is unique: another song with it is 409 on create and PATCH, and nothing changes', async () => {
    const id = externalId();
    await makeSong(w.api, w.admin, { externalId: id });
    const other = await makeSong(w.api, w.admin);
    const created = await w.api.request('POST', '/songs', {
      token: w.admin.token,
      body: { title: 'Twin', duration: 60, externalId: id },
    });
    expect(created.status).toBe(409);
    expect(created.body).toEqual(error('CONFLICT'));
    expect(created.body.message).toBe('Another song has this externalId');
    const patched = await w.api.request('PATCH', `/songs/${other.id}`, {
      token: w.admin.token,
      body: { externalId: id },
    });
    expect(patched.status).toBe(409);
    const read = await w.api.request<Song>('GET', `/songs/${other.id}`, { token: w.admin.token });
    expect(read.body.externalId).toBeNull();
  });

  it('answers 422 on externalId for an empty, over-long or control-character one', async () => {
    for (const bad of ['', '   ', 'x'.repeat(201), 'a\u0007b', 42]) {
      const res = await w.api.request('POST', '/songs', {
        token: w.admin.token,
        body: { title: 'Bad id', duration: 60, externalId: bad },
      });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body).toEqual(validation(['externalId']));
    }
  });

  it('finds the song by ?externalId=, in page and cursor modes', async () => {
    const id = externalId();
    const song = await makeSong(w.api, w.admin, { externalId: id });
    await makeSong(w.api, w.admin, { externalId: externalId() });
    for (const query of [`externalId=${id}`, `externalId=${id}&cursor=`]) {
      const res = await w.api.request<{ data: Song[] }>('GET', `/songs?${query}`, { token: w.user.token });
      expect(res.status).toBe(200);
      expect(res.body.data.map((s) => s.id)).toEqual([song.id]);
    }
    const none = await w.api.request<{ data: Song[] }>('GET', `/songs?externalId=${externalId()}`, {
      token: w.user.token,
    });
    expect(none.body.data).toEqual([]);
  });
});
