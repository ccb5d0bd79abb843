import { uuidv7 } from '@music/db';
import { describe, expect, it } from 'vitest';
import { error, makePlaylist, playlistWorld } from '../support/catalogue';
import { createClient, type SignedIn } from '../support/harness';

/**
 * `GET /v1/profiles` over HTTP (the rules are in the procedure tests): the list envelope with
 * only the users the caller may see, its 401 and 400 in the contract's error shape, and the
 * same operation over /trpc.
 */

const w = playlistWorld();

/** A listener, an owner of a public playlist, one of a private playlist only, one with none. */
async function cast() {
  const listener = await w.api.signUp('user');
  const publicOwner = await w.api.signUp('user');
  await makePlaylist(w.api, publicOwner, { isPublic: true });
  const privateOwner = await w.api.signUp('user');
  await makePlaylist(w.api, privateOwner, { isPublic: false });
  const nobody = await w.api.signUp('user');
  return { listener, publicOwner, privateOwner, nobody };
}

/** The profiles of `users` as the API should answer them: read through the admin, by username then id. */
async function profilesOf(users: SignedIn[]) {
  const profiles = [];
  for (const user of users) {
    const res = await w.api.request('GET', `/users/${user.id}`, { token: w.admin.token });
    profiles.push({ id: res.body.id as string, username: res.body.username as string });
  }
  return profiles.sort((a, b) =>
    a.username === b.username ? (a.id < b.id ? -1 : 1) : a.username < b.username ? -1 : 1,
  );
}

describe('GET /v1/profiles', () => {
  it('answers the list envelope with yourself and owners of public playlists only, ids in any case', async () => {
    const { listener, publicOwner, privateOwner, nobody } = await cast();
    const ids = [
      listener.id.toUpperCase(),
      publicOwner.id,
      privateOwner.id,
      nobody.id,
      uuidv7(),
      publicOwner.id.toUpperCase(),
    ].join(',');
    const res = await w.api.request('GET', `/profiles?ids=${ids}&limit=100`, { token: listener.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: await profilesOf([listener, publicOwner]),
      pagination: { page: 1, limit: 100, total: 2 },
    });
    expect(res.headers.get('link')).toContain('rel="first"');
  });

  it('shows an admin every user', async () => {
    const { listener, publicOwner, privateOwner, nobody } = await cast();
    const ids = [listener.id, publicOwner.id, privateOwner.id, nobody.id].join(',');
    const res = await w.api.request('GET', `/profiles?ids=${ids}`, { token: w.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: await profilesOf([listener, publicOwner, privateOwner, nobody]),
      pagination: { page: 1, limit: 20, total: 4 },
    });
  });

  it('is 401 without a token and 400 for 101 ids, in the error shape', async () => {
    const anonymous = await w.api.request('GET', '/profiles');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(error('UNAUTHORIZED'));
    const ids = Array.from({ length: 101 }, () => uuidv7()).join(',');
    const tooMany = await w.api.request('GET', `/profiles?ids=${ids}`, { token: w.owner.token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual(error('BAD_REQUEST'));
  });
});

describe('users.profiles over /trpc', () => {
  const trpc = () => createClient(w.api.url.replace(/\/v1$/, '/trpc'));
  const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));

  it('answers the same', async () => {
    const { listener, publicOwner, privateOwner } = await cast();
    const ids = [publicOwner.id.toUpperCase(), privateOwner.id, listener.id].join(',');
    const res = await trpc().request('GET', `/users.profiles?input=${input({ ids })}`, {
      token: listener.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({
      data: await profilesOf([listener, publicOwner]),
      pagination: { page: 1, limit: 20, total: 2 },
    });
  });
});
