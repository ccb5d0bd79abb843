import { uuidv7 } from '@music/db';
import { describe, expect, it } from 'vitest';
import { type Artist, catalogueWorld, error, makeArtist, tag } from '../support/catalogue';
import { createClient } from '../support/harness';

/**
 * `GET /v1/artists?ids=` over HTTP (the rules are in the procedure tests): the query string's
 * comma-separated list, its 400s in the contract's error shape, and the same filter over /trpc.
 */

const w = catalogueWorld();

const list = (query: string) => w.api.request('GET', `/artists?${query}`, { token: w.user.token });

async function threeArtists() {
  const t = tag();
  const made: Artist[] = [];
  for (const name of [`${t} b`, `${t} c`, `${t} a`]) made.push(await makeArtist(w.api, w.admin, { name }));
  const [b, c, a] = made as [Artist, Artist, Artist];
  return { t, a, b, c };
}

describe('GET /v1/artists?ids', () => {
  it('answers the named artists by name, ids in any case and repeated, unknown ids absent', async () => {
    const { a, b, c } = await threeArtists();
    await makeArtist(w.api, w.admin);
    const ids = [c.id.toUpperCase(), a.id, uuidv7(), b.id, a.id.toUpperCase(), c.id].join(',');
    const res = await list(`ids=${ids}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [a, b, c], pagination: { page: 1, limit: 100, total: 3 } });
  });

  it('combines with search', async () => {
    const { t, a, b } = await threeArtists();
    const other = await makeArtist(w.api, w.admin);
    const res = await list(`ids=${[a.id, b.id, other.id].join(',')}&search=${t}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [a, b], pagination: { page: 1, limit: 20, total: 2 } });
  });

  it('is 400 in the error shape for 101 ids, a malformed id or an empty list', async () => {
    const { a } = await threeArtists();
    const tooMany = [a.id, ...Array.from({ length: 100 }, () => uuidv7())].join(',');
    for (const ids of [tooMany, `${a.id},not-a-uuid`, `${a.id},`, '']) {
      const res = await list(`ids=${encodeURIComponent(ids)}`);
      expect(res.status, ids.slice(0, 60)).toBe(400);
      expect(res.body).toEqual(error('BAD_REQUEST'));
    }
    const hundred = [a.id, ...Array.from({ length: 99 }, () => uuidv7())].join(',');
    const res = await list(`ids=${hundred}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([a]);
  });
});

describe('artists.list with ids over /trpc', () => {
  const trpc = () => createClient(w.api.url.replace(/\/v1$/, '/trpc'));
  const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));

  it('filters the same way', async () => {
    const { a, b } = await threeArtists();
    const ids = [b.id.toUpperCase(), a.id, a.id, uuidv7()].join(',');
    const res = await trpc().request('GET', `/artists.list?input=${input({ ids, limit: 100 })}`, {
      token: w.user.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({ data: [a, b], pagination: { page: 1, limit: 100, total: 2 } });
  });

  it('refuses 101 ids with the usual validation error', async () => {
    const ids = Array.from({ length: 101 }, () => uuidv7()).join(',');
    const res = await trpc().request('GET', `/artists.list?input=${input({ ids })}`, { token: w.user.token });
    expect(res.status).toBe(422);
    expect(res.body.error.data).toMatchObject({ code: 'VALIDATION_FAILED', httpStatus: 422 });
  });
});
