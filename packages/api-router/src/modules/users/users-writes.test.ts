import { verifyPassword } from '@music/auth';
import { findUserById, uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTOR_PASSWORD, appCode, createRouterHarness } from '../../../testing/index';
import type { Actor } from '../../context';
import { etagOf } from '../../etag';

/** Writes that change nothing, If-Match (version 1.1) and ids in any letter case (8.1). */

const h = await createRouterHarness();
afterAll(() => h.close());

const stored = (id: string) => findUserById(h.deps.db, id);
const replaceBody = (actor: Actor) => ({
  userId: actor.user.id,
  username: actor.user.username,
  email: actor.user.email,
  password: ACTOR_PASSWORD,
});

describe('a write that changes nothing', () => {
  it('leaves updatedAt, the ETag and the password hash as they were (PUT and role PUT)', async () => {
    const admin = await h.makeActor('admin');
    const user = await h.makeActor('user');
    const before = await stored(user.user.id);
    const same = await h.caller(user).users.update({ ...replaceBody(user), role: 'user' });
    const sameByAdmin = await h.caller(admin).users.setRole({ userId: user.user.id, role: 'user' });
    expect(await stored(user.user.id)).toEqual(before);
    const current = await h.caller(user).users.get({ userId: user.user.id });
    expect(etagOf(same)).toBe(etagOf(current));
    expect(etagOf(sameByAdmin)).toBe(etagOf(current));
  });

  it('stores a new password (re-hashed) and moves updatedAt when only the password changes', async () => {
    const user = await h.makeActor('user');
    const before = await stored(user.user.id);
    // Your own new password needs your current one (version 1.2).
    await h.caller(user).users.update({
      ...replaceBody(user),
      password: 'a-new-password',
      currentPassword: ACTOR_PASSWORD,
    });
    const after = await stored(user.user.id);
    expect(after!.password_hash).not.toBe(before!.password_hash);
    expect(await verifyPassword(after!.password_hash, 'a-new-password')).toBe(true);
    expect(after!.updated_at.getTime()).toBeGreaterThan(before!.updated_at.getTime());
    expect({ ...after, password_hash: '', updated_at: 0 }).toEqual({
      ...before,
      password_hash: '',
      updated_at: 0,
    });
  });
});

describe('If-Match', () => {
  it('PUT: a matching tag or * applies the change; a stale tag is 412 and changes nothing', async () => {
    const user = await h.makeActor('user');
    const current = await h.caller(user).users.get({ userId: user.user.id });
    const renamed = await h.callerIfMatch(user, [etagOf(current)]).users.update({
      ...replaceBody(user),
      username: 'Renamed',
    });
    expect(renamed.username).toBe('Renamed');
    const before = await stored(user.user.id);
    const stale = h.callerIfMatch(user, [etagOf(current)]).users.update({
      ...replaceBody(user),
      username: 'Lost',
    });
    expect(await appCode(stale)).toBe('PRECONDITION_FAILED');
    expect(await stored(user.user.id)).toEqual(before);
    const any = await h.callerIfMatch(user, '*').users.update({ ...replaceBody(user), username: 'Any' });
    expect(any.username).toBe('Any');
    // One of several tags is enough.
    const listed = await h.callerIfMatch(user, ['"other"', etagOf(any)]).users.update({
      ...replaceBody(user),
      username: 'Listed',
    });
    expect(listed.username).toBe('Listed');
  });

  it('role PUT: a matching tag applies, a stale tag is 412 and changes nothing, * matches', async () => {
    const admin = await h.makeActor('admin');
    const user = await h.makeActor('user');
    const current = await h.caller(admin).users.get({ userId: user.user.id });
    const userId = user.user.id;
    expect(await appCode(h.callerIfMatch(admin, ['"stale"']).users.setRole({ userId, role: 'artist' }))).toBe(
      'PRECONDITION_FAILED',
    );
    expect((await stored(userId))!.role).toBe('user');
    const artist = await h.callerIfMatch(admin, [etagOf(current)]).users.setRole({ userId, role: 'artist' });
    expect(artist.role).toBe('artist');
    // The tag of the user before the change is stale now.
    expect(
      await appCode(h.callerIfMatch(admin, [etagOf(current)]).users.setRole({ userId, role: 'user' })),
    ).toBe('PRECONDITION_FAILED');
    expect((await h.callerIfMatch(admin, '*').users.setRole({ userId, role: 'user' })).role).toBe('user');
  });

  it('PATCH: a stale tag is 412 and changes nothing; the current tag applies', async () => {
    const user = await h.makeActor('user');
    const current = await h.caller(user).users.get({ userId: user.user.id });
    const before = await stored(user.user.id);
    const stale = h.callerIfMatch(user, ['"stale"']).users.patch({ userId: user.user.id, username: 'Lost' });
    expect(await appCode(stale)).toBe('PRECONDITION_FAILED');
    expect(await stored(user.user.id)).toEqual(before);
    const patched = await h
      .callerIfMatch(user, [etagOf(current)])
      .users.patch({ userId: user.user.id, username: 'Kept' });
    expect(patched.username).toBe('Kept');
  });

  it('DELETE: a stale tag is 412 and deletes nothing; the current tag deletes', async () => {
    const user = await h.makeActor('user');
    const current = await h.caller(user).users.get({ userId: user.user.id });
    expect(await appCode(h.callerIfMatch(user, ['"stale"']).users.delete({ userId: user.user.id }))).toBe(
      'PRECONDITION_FAILED',
    );
    expect(await stored(user.user.id)).toBeDefined();
    await h.callerIfMatch(user, [etagOf(current)]).users.delete({ userId: user.user.id });
    expect(await stored(user.user.id)).toBeUndefined();
    const other = await h.makeActor('user');
    await h.callerIfMatch(other, '*').users.delete({ userId: other.user.id });
    expect(await stored(other.user.id)).toBeUndefined();
  });

  it('comes after existence and permission: 403 and 404 win over a stale tag', async () => {
    const admin = await h.makeActor('admin');
    const user = await h.makeActor('user');
    const other = await h.makeActor('user');
    expect(await appCode(h.callerIfMatch(user, ['"x"']).users.delete({ userId: other.user.id }))).toBe(
      'FORBIDDEN',
    );
    expect(await appCode(h.callerIfMatch(admin, ['"x"']).users.delete({ userId: uuidv7() }))).toBe(
      'NOT_FOUND',
    );
    expect(
      await appCode(h.callerIfMatch(user, ['"x"']).users.update({ ...replaceBody(user), role: 'admin' })),
    ).toBe('FORBIDDEN');
  });
});

describe('ids in any letter case', () => {
  it('GET, PUT and DELETE of your own account with an upper-case id', async () => {
    const user = await h.makeActor('user');
    const upper = user.user.id.toUpperCase();
    expect((await h.caller(user).users.get({ userId: upper })).id).toBe(user.user.id);
    const renamed = await h
      .caller(user)
      .users.update({ ...replaceBody(user), userId: upper, username: 'Upper' });
    expect(renamed).toMatchObject({ id: user.user.id, username: 'Upper' });
    await h.caller(user).users.delete({ userId: upper });
    expect(await stored(user.user.id)).toBeUndefined();
  });

  it('an admin reaches others with an upper-case id, the role PUT included', async () => {
    const admin = await h.makeActor('admin');
    const user = await h.makeActor('user');
    const upper = user.user.id.toUpperCase();
    expect((await h.caller(admin).users.get({ userId: upper })).id).toBe(user.user.id);
    expect(await h.caller(admin).users.setRole({ userId: upper, role: 'artist' })).toMatchObject({
      id: user.user.id,
      role: 'artist',
    });
  });
});
