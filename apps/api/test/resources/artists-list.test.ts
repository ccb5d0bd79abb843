import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Artist, catalogueWorld, makeArtist, tag } from '../support/catalogue';

const w = catalogueWorld();

describe('GET /v1/artists', () => {
  it('filters by the managing account with userId (an extension)', async () => {
    const account = await w.api.signUp('artist');
    const mine = await makeArtist(w.api, w.admin, { userId: account.id });
    await makeArtist(w.api, w.admin);
    const res = await w.api.request('GET', `/artists?userId=${account.id}`, { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [mine], pagination: { page: 1, limit: 20, total: 1 } });
    const bad = await w.api.request('GET', '/artists?userId=nope', { token: account.token });
    expect(bad.status).toBe(400);
  });

  it('lists by name, then id, filtered by a case-insensitive substring', async () => {
    const t = tag();
    const names = [`b ${t}`, `a ${t}`, `c ${t} upper`, `b ${t}`];
    const made = [];
    for (const name of names) made.push(await makeArtist(w.api, w.admin, { name }));
    await makeArtist(w.api, w.admin, { name: `b ${t}` }); // same name: the id breaks the tie
    const res = await w.api.request<{ data: Artist[]; pagination: unknown }>(
      'GET',
      `/artists?search=${t.toUpperCase()}&limit=100`,
      { token: w.user.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: 5 });
    const listed = res.body.data;
    const sorted = [...listed].sort((a, b) =>
      a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1,
    );
    expect(listed.map((a) => a.id)).toEqual(sorted.map((a) => a.id));
    expect(listed[0]).toEqual(made[1]);
    const upper = await w.api.request('GET', `/artists?search=${encodeURIComponent(`${t} UPP`)}`, {
      token: w.user.token,
    });
    expect(upper.body.data.map((a: Artist) => a.id)).toEqual([made[2]!.id]);
  });

  it('pages stably without duplicates, and past the end gives [] with the true total', async () => {
    const t = tag();
    for (let i = 0; i < 7; i++) await makeArtist(w.api, w.admin, { name: `Same ${t}` });
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await w.api.request('GET', `/artists?search=${t}&limit=3&page=${page}`, {
        token: w.user.token,
      });
      expect(res.body.pagination).toEqual({ page, limit: 3, total: 7 });
      seen.push(...res.body.data.map((a: Artist) => a.id));
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toEqual([...seen].sort());
    const past = await w.api.request('GET', `/artists?search=${t}&limit=3&page=4`, { token: w.user.token });
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], pagination: { page: 4, limit: 3, total: 7 } });
  });

  it('defaults to page 1 and 20 items, accepts limit 100', async () => {
    const before = (await w.api.request('GET', '/artists?limit=1', { token: w.user.token })).body.pagination
      .total;
    for (let i = 0; i < 21; i++) await makeArtist(w.api, w.admin);
    const first = await w.api.request('GET', '/artists', { token: w.user.token });
    expect(first.body.data).toHaveLength(20);
    expect(first.body.pagination).toEqual({ page: 1, limit: 20, total: before + 21 });
    const all = await w.api.request('GET', '/artists?limit=100', { token: w.user.token });
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBe(Math.min(100, all.body.pagination.total));
  });
});

describe('GET /v1/artists?sort', () => {
  it('orders by name or createdAt, either way, then id; the default stays name, then id', async () => {
    const t = tag();
    const made: Artist[] = [];
    for (const name of [`${t} b`, `${t} a`, `${t} c`, `${t} a`])
      made.push(await makeArtist(w.api, w.admin, { name }));
    // Creation times of their own (two alike, for the tie), not the moments the requests ran.
    const times = ['2021-02-01', '2021-03-01', '2021-01-01', '2021-02-01'];
    for (const [i, artist] of made.entries()) {
      // Never written by the API, so not by Kysely's table types either: a plain statement.
      const createdAt = new Date(`${times[i]}T00:00:00Z`);
      await sql`update artists set created_at = ${createdAt} where id = ${artist.id}`.execute(
        w.api.database.db,
      );
    }
    const byId = (a: Artist, b: Artist) => (a.id < b.id ? -1 : 1);
    const ids = (order: number[]) => order.map((i) => made[i]!.id);
    const [a1, a3] = [made[1]!, made[3]!].sort(byId).map((a) => made.indexOf(a));
    const [b0, b3] = [made[0]!, made[3]!].sort(byId).map((a) => made.indexOf(a));
    const cases: Array<[string, string[]]> = [
      ['', ids([a1!, a3!, 0, 2])],
      ['&sort=name', ids([a1!, a3!, 0, 2])],
      ['&sort=-name', ids([2, 0, a1!, a3!])],
      ['&sort=createdAt', ids([2, b0!, b3!, 1])],
      ['&sort=-createdAt', ids([1, b0!, b3!, 2])],
      ['&sort=-createdAt,-name', ids([1, 0, 3, 2])],
      ['&sort=name,createdAt', ids([3, 1, 0, 2])],
    ];
    for (const [sort, want] of cases) {
      const res = await w.api.request('GET', `/artists?search=${t}${sort}`, { token: w.user.token });
      expect(res.status).toBe(200);
      expect(
        res.body.data.map((a: Artist) => a.id),
        sort,
      ).toEqual(want);
    }
    for (const sort of ['title', 'name,name', 'userId', '']) {
      const res = await w.api.request('GET', `/artists?sort=${sort}`, { token: w.user.token });
      expect(res.status, sort).toBe(400);
      expect(res.body).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
    }
  });
});
