import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness, failureOf } from '../../../testing/index';
import { pageMode } from '../../schemas';

const h = await createRouterHarness();
afterAll(() => h.close());

describe('users procedures', () => {
  it('sign-up normalises the email and never returns the password', async () => {
    const user = await h.caller(null).users.create({
      username: ' Ada ',
      email: ' Ada.Lovelace@Example.COM ',
      password: 'analytical-engine',
    });
    expect(user).toMatchObject({ username: 'Ada', email: 'ada.lovelace@example.com', role: 'user' });
    expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'id', 'role', 'updatedAt', 'username']);
  });

  it('maps a duplicate email to CONFLICT and bad input to VALIDATION_FAILED', async () => {
    const input = { username: 'x', email: 'twice@example.com', password: 'password-123' };
    await h.caller(null).users.create(input);
    expect(await appCode(h.caller(null).users.create({ ...input, email: 'TWICE@example.com' }))).toBe(
      'CONFLICT',
    );
    expect(await appCode(h.caller(null).users.create({ ...input, email: 'nope' }))).toBe('VALIDATION_FAILED');
  });

  it('enforces self-or-admin on get, update and delete', async () => {
    const alice = await h.makeActor('user');
    const bob = await h.makeActor('user');
    const admin = await h.makeActor('admin');
    expect(await appCode(h.caller(alice).users.get({ userId: bob.user.id }))).toBe('FORBIDDEN');
    expect(await appCode(h.caller(alice).users.delete({ userId: bob.user.id }))).toBe('FORBIDDEN');
    expect((await h.caller(admin).users.get({ userId: bob.user.id })).id).toBe(bob.user.id);
    expect(await appCode(h.caller(admin).users.get({ userId: 'nope' }))).toBe('NOT_FOUND');
    expect(await appCode(h.caller(null).users.get({ userId: bob.user.id }))).toBe('UNAUTHORIZED');
  });

  it('lets only admins list users and change roles', async () => {
    const user = await h.makeActor('user');
    const admin = await h.makeActor('admin');
    expect(await appCode(h.caller(user).users.list({}))).toBe('FORBIDDEN');
    const page = await h.caller(admin).users.list({ role: 'admin', limit: 100 });
    expect(page.data.every((u) => u.role === 'admin')).toBe(true);
    expect(page.data.map((u) => u.id)).toContain(admin.user.id);
    expect(pageMode(page.pagination).total).toBe(page.data.length);
    const update = { userId: user.user.id, username: 'u', email: user.user.email, password: 'password-123' };
    expect(await appCode(h.caller(user).users.update({ ...update, role: 'artist' }))).toBe('FORBIDDEN');
    expect((await h.caller(admin).users.update({ ...update, role: 'artist' })).role).toBe('artist');
  });
});

describe('auth procedures', () => {
  it('signs in, refreshes with rotation and logs out', async () => {
    await h.caller(null).users.create({ username: 'x', email: 'flow@example.com', password: 'password-123' });
    const login = await h.caller(null).auth.login({ email: 'FLOW@example.com', password: 'password-123' });
    expect(login.tokenType).toBe('Bearer');
    const refreshed = await h.caller(null).auth.refresh({ refreshToken: login.refreshToken });
    expect(refreshed.refreshToken).not.toBe(login.refreshToken);
    // A replay later than REFRESH_REUSE_GRACE_SECONDS (a repeat within it is the client's own).
    await h.database.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: new Date(Date.now() - 60_000) })
      .where('rotated_at', 'is not', null)
      .execute();
    expect(await appCode(h.caller(null).auth.refresh({ refreshToken: login.refreshToken }))).toBe(
      'UNAUTHORIZED',
    );
    // The replay revoked the session: the fresh refresh token is dead too.
    expect(await appCode(h.caller(null).auth.refresh({ refreshToken: refreshed.refreshToken }))).toBe(
      'UNAUTHORIZED',
    );
  });

  it('throttles per email with a Retry-After inside the window', async () => {
    const strict = await createRouterHarness({ loginMaxFailuresPerEmail: 2 });
    try {
      await strict
        .caller(null)
        .users.create({ username: 'x', email: 'slow@example.com', password: 'password-123' });
      for (let i = 0; i < 2; i++) {
        expect(
          await appCode(
            strict.caller(null).auth.login({ email: 'slow@example.com', password: 'wrong-pass' }),
          ),
        ).toBe('UNAUTHORIZED');
      }
      const error = await failureOf(
        strict.caller(null).auth.login({ email: 'slow@example.com', password: 'password-123' }),
      );
      expect(error.code).toBe('TOO_MANY_REQUESTS');
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(error.retryAfter).toBeLessThanOrEqual(900);
    } finally {
      await strict.close();
    }
  });
});
