import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness } from '../../../testing/index';
import { pageMode } from '../../schemas';
import type { User } from './users.schema';

/** `GET /users` search and sort (version 1.1). */

const h = await createRouterHarness();
afterAll(() => h.close());
const admin = await h.makeActor('admin');
const list = (input: Parameters<ReturnType<typeof h.caller>['users']['list']>[0]) =>
  h.caller(admin).users.list({ limit: 100, ...input });

/** A fresh marker, lower-case letters only, so no other user matches it. */
const marker = () => [...randomBytes(8)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');

async function signUp(username: string, email: string) {
  return h.caller(null).users.create({ username, email, password: 'password-123' });
}

describe('users.list search', () => {
  it('matches a substring of the username or the email, case-insensitively', async () => {
    const tag = marker();
    const byName = await signUp(`Name ${tag.toUpperCase()} x`, `${marker()}@example.com`);
    const byEmail = await signUp('Someone', `a.${tag}.b@example.com`);
    await signUp('Unrelated', `${marker()}@example.com`);
    const found = await list({ search: tag.slice(2, 7).toUpperCase() });
    expect(found.data.map((u) => u.id).sort()).toEqual([byName.id, byEmail.id].sort());
    expect(pageMode(found.pagination).total).toBe(2);
    // Combined with the role filter, and a page of one keeps the true total.
    expect(pageMode((await list({ search: tag, role: 'admin' })).pagination).total).toBe(0);
    expect(await list({ search: tag, limit: 1, page: 2 })).toMatchObject({
      data: [expect.any(Object)],
      pagination: { total: 2, page: 2, limit: 1 },
    });
  });

  it('takes %, _ and \\ as punctuation between words, and literally alone: never as wildcards', async () => {
    const tag = marker();
    const literal = await signUp(`${tag} 100%_\\`, `${marker()}@example.com`);
    const other = await signUp(`${tag} 1000 x`, `${marker()}@example.com`);
    const ids = async (search: string) => (await list({ search })).data.map((u) => u.id).sort();
    // Between letters and digits they separate words: both names hold the words of these terms.
    expect(await ids(`${tag} 100%`)).toEqual([literal.id, other.id].sort());
    expect(await ids(`${tag}%`)).toEqual([literal.id, other.id].sort());
    // Alone they are what is looked for, as written.
    expect(await ids('%_\\')).toContain(literal.id);
    expect(await ids('%_\\')).not.toContain(other.id);
    expect(await ids('_%')).toEqual([]);
  });

  it('finds composed and decomposed spellings alike (NFC), and an empty search matches all', async () => {
    const tag = marker();
    const user = await signUp(`Zoe\u0301 ${tag}`, `${marker()}@example.com`);
    expect(user.username).toBe(`Zoé ${tag}`);
    expect((await list({ search: `zoé ${tag}` })).data.map((u) => u.id)).toEqual([user.id]);
    expect((await list({ search: `Zoe\u0301 ${tag.toUpperCase()}` })).data.map((u) => u.id)).toEqual([
      user.id,
    ]);
    const all = await list({});
    expect(pageMode((await list({ search: '  ' })).pagination).total).toBe(pageMode(all.pagination).total);
  });

  it('refuses control characters in the term', async () => {
    expect(await appCode(list({ search: 'a\u0000b' }))).toBe('VALIDATION_FAILED');
  });
});

describe('users.list sort', () => {
  it('orders by username, email or createdAt, either way, ties broken by id', async () => {
    const tag = marker();
    // Same-length lower-case names: the order is the same under any collation.
    const made: User[] = [];
    for (const [name, local] of [
      ['bbb', 'aaa'],
      ['aaa', 'ccc'],
      ['ccc', 'bbb'],
      ['aaa', 'ddd'],
    ] as const) {
      made.push(await signUp(`${tag} ${name}`, `${tag}.${local}@example.com`));
    }
    const ids = (sort?: string) =>
      list({ search: tag, ...(sort ? { sort } : {}) }).then((p) => p.data.map((u) => u.id));
    const byId = (x: User, y: User) => (x.id < y.id ? -1 : 1);
    const [b, a1, c, a2] = made as [User, User, User, User];
    const [firstA, secondA] = [a1, a2].sort(byId);
    expect(await ids('username')).toEqual([firstA!.id, secondA!.id, b.id, c.id]);
    // Descending reverses the field; the tie-break stays by id.
    expect(await ids('-username')).toEqual([c.id, b.id, firstA!.id, secondA!.id]);
    expect(await ids('email')).toEqual([b.id, c.id, a1.id, a2.id]);
    expect(await ids('-email')).toEqual([a2.id, a1.id, c.id, b.id]);
    expect(await ids('username,-email')).toEqual([a2.id, a1.id, b.id, c.id]);
    // The default is unchanged: oldest first, then id (uuidv7 ids are time-ordered too).
    const oldestFirst = [...made].sort((x, y) => x.createdAt.localeCompare(y.createdAt) || byId(x, y));
    expect(await ids()).toEqual(oldestFirst.map((u) => u.id));
    expect(await ids('createdAt')).toEqual(oldestFirst.map((u) => u.id));
    const newestFirst = await ids('-createdAt');
    expect(newestFirst[0]).toBe(oldestFirst.at(-1)!.id);
  });

  it('refuses an unknown or repeated field', async () => {
    for (const sort of ['password', 'username,username', '-role', '']) {
      expect(await appCode(list({ sort })), sort).toBe('VALIDATION_FAILED');
    }
  });
});
