import { randomBytes } from 'node:crypto';
import { uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouterHarness, failureOf } from '../../../testing/index';
import { encodeCursor } from '../../cursor';
import { SONG_SORT_FIELDS } from './songs.schema';

/** `songs.list` in cursor mode: keyset pages in every order, exact under inserts, checked cursors. */

const h = await createRouterHarness();
afterAll(() => h.close());
const admin = await h.makeActor('admin');
const listener = await h.makeActor('user');
const list = h.caller(listener).songs.list;

const tag = () => randomBytes(5).toString('hex');
type Page = Awaited<ReturnType<typeof list>>;

function nextOf(page: Page): string | null {
  const { pagination } = page;
  if (!('nextCursor' in pagination)) throw new Error('not a cursor-mode answer');
  expect(pagination).not.toHaveProperty('total');
  return pagination.nextCursor;
}

/** Every page from the first, following nextCursor; `between` runs before each next page. */
async function walk(
  input: Omit<Parameters<typeof list>[0], 'cursor'>,
  between?: (n: number) => Promise<void>,
) {
  const ids: string[] = [];
  let cursor: string | null = '';
  for (let n = 0; cursor !== null; n++) {
    if (n > 0 && between) await between(n);
    const page: Page = await list({ ...input, cursor });
    ids.push(...page.data.map((song) => song.id));
    cursor = nextOf(page);
    if (n > 50) throw new Error('no end');
  }
  return ids;
}

/** Songs with ties, NULLs and one title each, so every order has something to break. */
async function makeSongs(t: string) {
  const specs = [
    { title: `${t} b`, album: 'x', releaseYear: 2001, duration: 100 },
    { title: `${t} a`, album: null, releaseYear: null, duration: 100 },
    { title: `${t} c`, album: 'x', releaseYear: 1999, duration: 300 },
    { title: `${t} a`, album: 'y', releaseYear: 2001, duration: 200 },
    { title: `${t} d`, album: null, releaseYear: 1999, duration: 100 },
  ];
  const made = [];
  for (const spec of specs) made.push(await h.caller(admin).songs.create(spec));
  return made;
}

describe('songs.list with cursor', () => {
  it('walks every sort order exactly as page mode orders it, with no total', async () => {
    const t = tag();
    const made = await makeSongs(t);
    const ids = made.map((song) => song.id).join(',');
    const orders = [
      undefined,
      ...SONG_SORT_FIELDS.flatMap((f) => [f, `-${f}`]),
      '-releaseYear,album',
      'duration,-title',
    ];
    for (const sort of orders) {
      const paged = await list({ ids, sort, limit: 100 });
      const walked = await walk({ ids, sort, limit: 2 });
      expect(walked, `sort=${sort}`).toEqual(paged.data.map((song) => song.id));
    }
  });

  it('walks a search (past the search cache) exactly, in the order asked', async () => {
    const t = tag();
    const made = await makeSongs(t);
    for (const sort of [undefined, '-album', 'releaseYear']) {
      const paged = await list({ search: t, sort, limit: 100 });
      expect(paged.data).toHaveLength(made.length);
      expect(await walk({ search: t, sort, limit: 2 })).toEqual(paged.data.map((song) => song.id));
    }
  });

  it('skips and repeats nothing when rows are inserted before and after the cursor between pages', async () => {
    const t = tag();
    const titles = ['b', 'd', 'f', 'h', 'j', 'l'];
    const original = [];
    for (const letter of titles)
      original.push(await h.caller(admin).songs.create({ title: `${t} ${letter}`, duration: 1 }));
    const before: string[] = [];
    const after: string[] = [];
    const walked = await walk({ search: t, limit: 2 }, async (n) => {
      // One before everything read so far (never seen), one after the cursor (seen: 'z' comes last).
      before.push((await h.caller(admin).songs.create({ title: `${t} a${n}`, duration: 1 })).id);
      after.push((await h.caller(admin).songs.create({ title: `${t} z${n}`, duration: 1 })).id);
    });
    expect(walked.filter((id) => before.includes(id))).toEqual([]);
    expect(walked.filter((id) => after.includes(id))).toEqual(after);
    expect(new Set(walked).size).toBe(walked.length);
    for (const song of original) expect(walked).toContain(song.id);
    const all = (await list({ search: t, limit: 100 })).data.map((song) => song.id);
    // What a walk returns is in the list's order, and every row after the last cursor is there.
    expect(walked).toEqual(all.filter((id) => walked.includes(id)));
  });

  it('answers the same page-mode envelope as before without cursor', async () => {
    const page = await list({ limit: 1 });
    expect(Object.keys(page.pagination)).toEqual(['page', 'limit', 'total']);
  });
});

describe('songs.list refuses a bad cursor with 422 on cursor', () => {
  async function fieldsOf(input: Parameters<typeof list>[0]) {
    const error = await failureOf(list(input));
    return { code: error.code, fields: error.errors?.map((e) => e.field) };
  }
  const refused = { code: 'VALIDATION_FAILED', fields: ['cursor'] };

  it('refuses tampered, malformed and foreign cursors', async () => {
    const t = tag();
    await makeSongs(t);
    const cursor = nextOf(await list({ search: t, limit: 2, cursor: '' }))!;
    const [body, check] = cursor.split('.') as [string, string];
    const json = JSON.parse(Buffer.from(body, 'base64url').toString()) as [string, unknown[], string];
    const forged = (value: unknown) => `${Buffer.from(JSON.stringify(value)).toString('base64url')}.${check}`;
    expect(await fieldsOf({ cursor: forged([json[0], json[1], uuidv7()]) })).toEqual(refused);
    expect(await fieldsOf({ cursor: `${body.slice(0, -2)}AA.${check}` })).toEqual(refused);
    expect(await fieldsOf({ cursor: 'not a cursor' })).toEqual(refused);
    expect(await fieldsOf({ cursor: `${body}.${'A'.repeat(16)}` })).toEqual(refused);
    expect(await fieldsOf({ cursor: `%%%.${check}` })).toEqual(refused);
    // Made for another order, or another list.
    expect(await fieldsOf({ search: t, sort: '-title', cursor })).toEqual(refused);
    const artistCursor = await h.caller(listener).artists.list({ limit: 1, cursor: '' });
    const other = 'nextCursor' in artistCursor.pagination ? artistCursor.pagination.nextCursor : null;
    if (other !== null) expect(await fieldsOf({ cursor: other })).toEqual(refused);
  });

  it('refuses a well-made cursor whose values do not fit their columns (never a database error)', async () => {
    const id = uuidv7();
    const made = (column: string, values: (string | null)[]) =>
      encodeCursor('songs', [{ column, descending: false }], { values, id });
    expect(
      await fieldsOf({ sort: 'createdAt', cursor: made('created_at', ['2026-02-30T00:00:00.000000Z']) }),
    ).toEqual(refused);
    expect(await fieldsOf({ sort: 'duration', cursor: made('duration', ['99999999999']) })).toEqual(refused);
    expect(await fieldsOf({ sort: 'duration', cursor: made('duration', ['1', '2']) })).toEqual(refused);
    expect(await fieldsOf({ sort: 'title', cursor: made('title', ['a\u0000b']) })).toEqual(refused);
    // The same cursor with fitting values is good, NULL included.
    expect((await list({ sort: 'duration', cursor: made('duration', [null]) })).data).toBeDefined();
    expect(
      (await list({ sort: 'createdAt', cursor: made('created_at', ['2026-02-28T00:00:00.123456Z']) })).data,
    ).toBeDefined();
  });

  it('refuses page with cursor (422 on page)', async () => {
    expect(await fieldsOf({ page: 1, cursor: '' })).toEqual({ code: 'VALIDATION_FAILED', fields: ['page'] });
  });
});
