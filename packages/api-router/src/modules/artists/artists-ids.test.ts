import { randomBytes } from 'node:crypto';
import { uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouterHarness, failureOf } from '../../../testing/index';
import { pageMode } from '../../schemas';

/** `artists.list` with `ids`: the artists of a page of songs in one call. */

const h = await createRouterHarness();
afterAll(() => h.close());
const admin = await h.makeActor('admin');
const listener = await h.makeActor('user');

const tag = () => randomBytes(5).toString('hex');

async function makeArtists(names: string[]) {
  const made = [];
  for (const name of names) {
    // The embedded database's clock counts whole milliseconds: two creates in one would tie on
    // createdAt, and the order by -createdAt would fall back to the ids.
    if (made.length > 0) await new Promise((resolve) => setTimeout(resolve, 2));
    made.push(await h.caller(admin).artists.create({ name }));
  }
  return made;
}

async function invalidFields(input: Parameters<ReturnType<typeof h.caller>['artists']['list']>[0]) {
  const error = await failureOf(h.caller(listener).artists.list(input));
  return { code: error.code, fields: error.errors?.map((e) => e.field) };
}

describe('artists.list with ids', () => {
  it('answers only the named artists, in the list’s order, ids in any case, duplicates once', async () => {
    const t = tag();
    const [c, a, b] = await makeArtists([`c ${t}`, `a ${t}`, `b ${t}`]);
    await makeArtists([`a ${t} not asked for`]);
    const ids = [c!.id.toUpperCase(), a!.id, b!.id, a!.id.toUpperCase(), uuidv7()].join(',');
    const listed = await h.caller(listener).artists.list({ ids });
    expect(listed).toEqual({ data: [a, b, c], pagination: { page: 1, limit: 20, total: 3 } });
    const byNewest = await h.caller(listener).artists.list({ ids, sort: '-createdAt' });
    expect(byNewest.data.map((artist) => artist.id)).toEqual([b!.id, a!.id, c!.id]);
  });

  it('pages as any list (total counts all the named artists that exist)', async () => {
    const t = tag();
    const made = await makeArtists([`${t} 1`, `${t} 2`, `${t} 3`]);
    const ids = made.map((artist) => artist.id).join(',');
    const second = await h.caller(listener).artists.list({ ids, page: 2, limit: 2 });
    expect(second).toEqual({ data: [made[2]], pagination: { page: 2, limit: 2, total: 3 } });
  });

  it('combines with search and userId (AND)', async () => {
    const t = tag();
    const manager = await h.makeActor('artist');
    const [match, other] = await makeArtists([`${t} match`, `${t} other`]);
    const managed = await h
      .caller(admin)
      .artists.create({ name: `${t} match managed`, userId: manager.user.id });
    const ids = [match!.id, other!.id, managed.id].join(',');
    const searched = await h.caller(listener).artists.list({ ids, search: 'MATCH' });
    expect(searched.data.map((artist) => artist.id)).toEqual([match!.id, managed.id]);
    expect(pageMode(searched.pagination).total).toBe(2);
    const mine = await h.caller(listener).artists.list({ ids, search: 'match', userId: manager.user.id });
    expect(mine.data).toEqual([managed]);
  });

  it('answers nothing when none of the ids names an artist', async () => {
    const listed = await h.caller(listener).artists.list({ ids: `${uuidv7()},${uuidv7()}` });
    expect(listed).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });

  it('takes 100 ids (duplicates counted) and refuses 101, a malformed id or an empty entry', async () => {
    const hundred = Array.from({ length: 100 }, () => uuidv7());
    const [artist] = await makeArtists([`hundredth ${tag()}`]);
    hundred[99] = artist!.id;
    const listed = await h.caller(listener).artists.list({ ids: hundred.join(','), limit: 100 });
    expect(listed.data).toEqual([artist]);
    const refused = { code: 'VALIDATION_FAILED', fields: ['ids'] };
    expect(await invalidFields({ ids: [...hundred, uuidv7()].join(',') })).toEqual(refused);
    expect(await invalidFields({ ids: [...hundred, hundred[0]].join(',') })).toEqual(refused);
    expect(await invalidFields({ ids: `${artist!.id},not-a-uuid` })).toEqual(refused);
    expect(await invalidFields({ ids: `${artist!.id},` })).toEqual(refused);
    expect(await invalidFields({ ids: ` ${artist!.id}` })).toEqual(refused);
    expect(await invalidFields({ ids: '' })).toEqual(refused);
  });
});
