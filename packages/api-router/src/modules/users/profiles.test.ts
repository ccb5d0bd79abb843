import { randomBytes } from 'node:crypto';
import { uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness, failureOf } from '../../../testing/index';
import type { Actor } from '../../context';
import { pageMode } from '../../schemas';
import type { User } from './users.schema';

/** `users.profiles`: public names, visible for yourself and for owners of public playlists. */

const h = await createRouterHarness();
afterAll(() => h.close());
const admin = await h.makeActor('admin');
const listener = await h.makeActor('user');

type ProfilesInput = Parameters<ReturnType<typeof h.caller>['users']['profiles']>[0];
const profiles = (actor: Actor, input: ProfilesInput = {}) =>
  h.caller(actor).users.profiles({ limit: 100, ...input });

const tag = () => randomBytes(5).toString('hex');
const profileOf = (user: { id: string; username: string }) => ({ id: user.id, username: user.username });

async function signUp(username: string, email = `${tag()}@example.com`): Promise<User> {
  return h.caller(null).users.create({ username, email, password: 'password-123' });
}

/** A playlist of `owner`'s, made by the admin. */
function playlistOf(owner: User | Actor['user'], isPublic: boolean) {
  return h.caller(admin).playlists.create({ name: `List ${tag()}`, isPublic, userId: owner.id });
}

/** Users named `<t> <name>`: one with a public (and a private) playlist, one with only private ones, one with none. */
async function cast(t: string) {
  const publicOwner = await signUp(`${t} public`);
  await playlistOf(publicOwner, true);
  await playlistOf(publicOwner, false);
  const privateOwner = await signUp(`${t} private`);
  await playlistOf(privateOwner, false);
  const nobody = await signUp(`${t} nobody`);
  return { publicOwner, privateOwner, nobody };
}

const idsOf = (page: { data: { id: string }[] }) => page.data.map((profile) => profile.id).sort();

describe('users.profiles for a listener', () => {
  it('shows yourself and owners of a public playlist, not owners of private ones only, nor users without', async () => {
    const t = tag();
    const { publicOwner, privateOwner, nobody } = await cast(t);
    const ids = [listener.user.id, publicOwner.id, privateOwner.id, nobody.id].join(',');
    const listed = await profiles(listener, { ids });
    expect(idsOf(listed)).toEqual([listener.user.id, publicOwner.id].sort());
    expect(listed.pagination).toEqual({ page: 1, limit: 100, total: 2 });
    expect(listed.data).toContainEqual(profileOf(publicOwner));
    expect(listed.data).toContainEqual(profileOf(listener.user));
    // Unfiltered too: the rule is the query's, not the ids filter's.
    const all = idsOf(await profiles(listener));
    expect(all).toContain(listener.user.id);
    expect(all).toContain(publicOwner.id);
    expect(all).not.toContain(privateOwner.id);
    expect(all).not.toContain(nobody.id);
  });

  it('follows the playlists: made private again, the owner is gone', async () => {
    const owner = await signUp(`${tag()} fickle`);
    const playlist = await playlistOf(owner, true);
    expect((await profiles(listener, { ids: owner.id })).data).toEqual([profileOf(owner)]);
    await h
      .caller(admin)
      .playlists.replace({ playlistId: playlist.id, name: playlist.name, isPublic: false });
    expect(await profiles(listener, { ids: owner.id })).toEqual({
      data: [],
      pagination: { page: 1, limit: 100, total: 0 },
    });
  });

  it('takes ids in any case and repeated, answers them lower-case, leaves out unknown ones', async () => {
    const { publicOwner } = await cast(tag());
    const ids = [publicOwner.id.toUpperCase(), publicOwner.id, uuidv7(), listener.user.id.toUpperCase()];
    const listed = await profiles(listener, { ids: ids.join(',') });
    expect(idsOf(listed)).toEqual([listener.user.id, publicOwner.id].sort());
    for (const profile of listed.data) expect(profile.id).toBe(profile.id.toLowerCase());
    expect(pageMode((await profiles(listener, { ids: `${uuidv7()},${uuidv7()}` })).pagination).total).toBe(0);
  });

  it('orders by username, then id, and pages with the total of the visible users', async () => {
    const t = tag();
    const made: User[] = [];
    for (const name of ['same', 'a', 'same', 'b']) {
      const user = await signUp(`${t} ${name}`);
      await playlistOf(user, true);
      made.push(user);
    }
    const [same1, a, same2, b] = made as [User, User, User, User];
    const [firstSame, secondSame] = [same1, same2].sort((x, y) => (x.id < y.id ? -1 : 1));
    const ids = made.map((user) => user.id).join(',');
    const listed = await profiles(listener, { ids });
    expect(listed.data).toEqual([a, b, firstSame!, secondSame!].map(profileOf));
    expect(await profiles(listener, { ids, page: 2, limit: 3 })).toEqual({
      data: [profileOf(secondSame!)],
      pagination: { page: 2, limit: 3, total: 4 },
    });
  });

  it('searches usernames only, folded (case and punctuation aside), never emails', async () => {
    const t = tag();
    const { publicOwner, privateOwner, nobody } = await cast(t);
    const byEmail = await signUp('Someone else', `${t}.x@example.com`);
    await playlistOf(byEmail, true);
    expect((await profiles(listener, { search: t.toUpperCase() })).data).toEqual([profileOf(publicOwner)]);
    expect((await profiles(listener, { search: `${t}%` })).data).toEqual([profileOf(publicOwner)]);
    // An admin sees everyone, so only the username decides there.
    expect(idsOf(await profiles(admin, { search: t }))).toEqual(
      [publicOwner.id, privateOwner.id, nobody.id].sort(),
    );
  });
});

describe('users.profiles for an admin', () => {
  it('shows every user, with or without playlists', async () => {
    const { publicOwner, privateOwner, nobody } = await cast(tag());
    const ids = [publicOwner.id, privateOwner.id, nobody.id, listener.user.id, uuidv7()].join(',');
    expect(idsOf(await profiles(admin, { ids }))).toEqual(
      [publicOwner.id, privateOwner.id, nobody.id, listener.user.id].sort(),
    );
  });
});

describe('users.profiles answers', () => {
  it('carry only id and username: never the email or the role', async () => {
    const { publicOwner, privateOwner } = await cast(tag());
    const ids = [publicOwner.id, privateOwner.id, listener.user.id, admin.user.id].join(',');
    for (const actor of [listener, admin]) {
      const listed = await profiles(actor, { ids });
      expect(listed.data.length).toBeGreaterThan(0);
      for (const profile of listed.data) expect(Object.keys(profile).sort()).toEqual(['id', 'username']);
    }
  });

  it('need a caller: anonymous is 401', async () => {
    expect(await appCode(h.caller(null).users.profiles({}))).toBe('UNAUTHORIZED');
  });

  it('take up to 100 ids: 101 is a validation error on `ids`', async () => {
    const hundred = Array.from({ length: 100 }, () => uuidv7());
    hundred[99] = listener.user.id;
    expect((await profiles(listener, { ids: hundred.join(',') })).data).toEqual([profileOf(listener.user)]);
    const error = await failureOf(profiles(listener, { ids: [...hundred, uuidv7()].join(',') }));
    expect({ code: error.code, fields: error.errors?.map((e) => e.field) }).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['ids'],
    });
  });
});
