import { type Db, findUserById, listUsers, type Role, uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness, failureOf, type RouterHarness } from '../../../testing/index';

/** Roles, and "there is always an admin" (version 1.1), at the procedure level. */

const h = await createRouterHarness();
afterAll(() => h.close());

async function adminIds(db: Db): Promise<string[]> {
  const { rows } = await listUsers(db, { role: 'admin', limit: 100, offset: 0 });
  return rows.map((row) => row.id).sort();
}

describe('users.setRole', () => {
  it('changes the role and nothing else', async () => {
    const admin = await h.makeActor('admin');
    const target = await h.makeActor('user');
    const before = await findUserById(h.deps.db, target.user.id);
    const user = await h.caller(admin).users.setRole({ userId: target.user.id, role: 'artist' });
    expect(user).toMatchObject({ id: target.user.id, role: 'artist', username: before!.username });
    const after = await findUserById(h.deps.db, target.user.id);
    expect({ ...after, role: before!.role, updated_at: before!.updated_at }).toEqual(before);
    expect(after!.updated_at.getTime()).toBeGreaterThanOrEqual(before!.updated_at.getTime());
  });

  it('is admin only, whatever the target: 403 before 404', async () => {
    const user = await h.makeActor('user');
    const artist = await h.makeActor('artist');
    const admin = await h.makeActor('admin');
    for (const caller of [user, artist]) {
      for (const userId of [caller.user.id, admin.user.id, uuidv7(), 'not-a-uuid']) {
        expect(await appCode(h.caller(caller).users.setRole({ userId, role: 'admin' })), userId).toBe(
          'FORBIDDEN',
        );
      }
    }
    expect((await findUserById(h.deps.db, user.user.id))!.role).toBe('user');
    expect(await appCode(h.caller(null).users.setRole({ userId: user.user.id, role: 'admin' }))).toBe(
      'UNAUTHORIZED',
    );
    expect(await appCode(h.caller(admin).users.setRole({ userId: uuidv7(), role: 'user' }))).toBe(
      'NOT_FOUND',
    );
    expect(await appCode(h.caller(admin).users.setRole({ userId: 'nope', role: 'user' }))).toBe('NOT_FOUND');
  });

  it('refuses an unknown role and unknown fields with VALIDATION_FAILED', async () => {
    const admin = await h.makeActor('admin');
    const target = await h.makeActor('user');
    const bad = await failureOf(
      h.caller(admin).users.setRole({ userId: target.user.id, role: 'superuser' as Role }),
    );
    expect(bad.errors?.map((e) => e.field)).toEqual(['role']);
    const extra = await failureOf(
      // @ts-expect-error: an unknown key, as a client could send it
      h.caller(admin).users.setRole({ userId: target.user.id, role: 'user', username: 'x' }),
    );
    expect(extra.errors?.map((e) => e.field)).toEqual(['username']);
  });
});

describe('there is always an admin', () => {
  /** A database whose only admin is the one returned. */
  async function loneAdmin(): Promise<{
    h: RouterHarness;
    admin: Awaited<ReturnType<RouterHarness['makeActor']>>;
  }> {
    const own = await createRouterHarness();
    return { h: own, admin: await own.makeActor('admin') };
  }

  it('refuses to demote or delete the last admin (409), changing nothing', async () => {
    const { h: lone, admin } = await loneAdmin();
    try {
      const before = await findUserById(lone.deps.db, admin.user.id);
      const body = {
        userId: admin.user.id,
        username: 'Still admin',
        email: admin.user.email,
        password: 'password123',
      };
      for (const attempt of [
        () => lone.caller(admin).users.setRole({ userId: admin.user.id, role: 'user' }),
        () => lone.caller(admin).users.update({ ...body, role: 'artist' }),
        () => lone.caller(admin).users.delete({ userId: admin.user.id }),
      ]) {
        const error = await failureOf(attempt());
        expect(error.code).toBe('CONFLICT');
        expect(error.message).toMatch(/last admin/);
      }
      expect(await findUserById(lone.deps.db, admin.user.id)).toEqual(before);
      // Keeping the role is fine, and so is leaving once there is another admin.
      expect((await lone.caller(admin).users.update(body)).username).toBe('Still admin');
      const second = await lone.makeActor('admin');
      expect((await lone.caller(admin).users.setRole({ userId: admin.user.id, role: 'user' })).role).toBe(
        'user',
      );
      expect(await appCode(lone.caller(second).users.delete({ userId: second.user.id }))).toBe('CONFLICT');
      expect(await adminIds(lone.deps.db)).toEqual([second.user.id]);
    } finally {
      await lone.close();
    }
  });

  it('lets exactly one of two admins demoting or deleting each other at once succeed', async () => {
    const { h: race, admin: first } = await loneAdmin();
    try {
      let survivor = first;
      const attempts = ['setRole', 'delete', 'update'] as const;
      for (let round = 0; round < 12; round++) {
        const a = await race.makeActor('admin');
        const b = await race.makeActor('admin');
        await race.caller(a).users.setRole({ userId: survivor.user.id, role: 'user' });
        expect(await adminIds(race.deps.db)).toEqual([a.user.id, b.user.id].sort());
        const kind = attempts[round % attempts.length]!;
        const remove = (actor: typeof a, target: typeof a) => {
          const userId = target.user.id;
          if (kind === 'setRole') return race.caller(actor).users.setRole({ userId, role: 'user' });
          if (kind === 'delete') return race.caller(actor).users.delete({ userId });
          const body = { userId, username: 'Demoted', email: target.user.email, password: 'password123' };
          return race.caller(actor).users.update({ ...body, role: 'artist' });
        };
        const results = await Promise.allSettled([remove(a, b), remove(b, a)]);
        const failed = results.flatMap((r) => (r.status === 'rejected' ? [r] : []));
        expect(
          results.filter((r) => r.status === 'fulfilled'),
          `${kind} round ${round}`,
        ).toHaveLength(1);
        expect(await appCode(Promise.reject(failed[0]!.reason))).toBe('CONFLICT');
        const admins = await adminIds(race.deps.db);
        expect(admins).toHaveLength(1);
        survivor = admins[0] === a.user.id ? a : b;
      }
    } finally {
      await race.close();
    }
  });
});
