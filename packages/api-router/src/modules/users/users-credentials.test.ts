import { verifyPassword } from '@music/auth';
import { findSessionUser, insertSession, users, uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTOR_PASSWORD, appCode, createRouterHarness, failureOf } from '../../../testing/index';
import type { Actor } from '../../context';

/**
 * An account's credentials (version 1.2): changing your own email or password needs your
 * current password, checked as a sign-in is; a new password ends the account's other sessions;
 * PATCH changes only what it is given, so renaming needs no password.
 */
const h = await createRouterHarness({ loginMaxFailuresPerEmail: 3, loginMaxFailuresPerAddress: 1_000 });
afterAll(() => h.close());
const admin = await h.makeActor('admin');

/** Another live session of the same user (another device). */
async function secondSession(actor: Actor): Promise<string> {
  const id = uuidv7();
  await insertSession(h.database.db, {
    id,
    userId: actor.user.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return id;
}
const live = async (actor: Actor, sessionId = actor.sessionId) =>
  (await findSessionUser(h.database.db, sessionId, actor.user.id)) !== undefined;
const stored = (actor: Actor) => users.findUserById(h.database.db, actor.user.id);

describe('PATCH /users/{id}', () => {
  it('renames yourself without a password, and changes nothing else', async () => {
    const me = await h.makeActor();
    const renamed = await h.caller(me).users.patch({ userId: me.user.id, username: 'New name' });
    expect(renamed).toMatchObject({ username: 'New name', email: me.user.email, role: 'user' });
    expect((await stored(me))?.password_hash).toBe((await stored(me))?.password_hash);
    // An empty PATCH changes nothing, not even updatedAt.
    expect(await h.caller(me).users.patch({ userId: me.user.id })).toEqual(renamed);
  });

  it('lets an admin rename another user, or set their password, without knowing it', async () => {
    const user = await h.makeActor();
    const other = await secondSession(user);
    const renamed = await h.caller(admin).users.patch({ userId: user.user.id, username: 'By admin' });
    expect(renamed.username).toBe('By admin');
    expect(await live(user)).toBe(true);
    await h.caller(admin).users.patch({ userId: user.user.id, password: 'set-by-an-admin' });
    expect(await verifyPassword((await stored(user))!.password_hash, 'set-by-an-admin')).toBe(true);
    // Every session of that user ends (none of them is the admin's); the admin's goes on.
    expect([await live(user), await live(user, other), await live(admin)]).toEqual([false, false, true]);
  });

  it('refuses other accounts and roles to non-admins, as PUT does', async () => {
    const [me, them] = [await h.makeActor(), await h.makeActor()];
    expect(await appCode(h.caller(me).users.patch({ userId: them.user.id, username: 'x' }))).toBe(
      'FORBIDDEN',
    );
    expect(await appCode(h.caller(me).users.patch({ userId: me.user.id, role: 'admin' }))).toBe('FORBIDDEN');
    expect(await appCode(h.caller(me).users.patch({ userId: uuidv7(), username: 'x' }))).toBe('FORBIDDEN');
    expect(await appCode(h.caller(admin).users.patch({ userId: uuidv7(), username: 'x' }))).toBe('NOT_FOUND');
  });
});

describe('changing your own email or password', () => {
  it('needs currentPassword: missing or wrong is a 422 on it, and nothing changes', async () => {
    const me = await h.makeActor();
    const before = await stored(me);
    const attempts = [
      () => h.caller(me).users.patch({ userId: me.user.id, email: 'taken-over@example.com' }),
      () => h.caller(me).users.patch({ userId: me.user.id, password: 'thief-password' }),
      () =>
        h.caller(me).users.patch({ userId: me.user.id, password: 'thief-pw', currentPassword: 'a-guess' }),
      () =>
        h.caller(me).users.update({
          userId: me.user.id,
          username: 'x',
          email: 'taken-over@example.com',
          password: ACTOR_PASSWORD,
        }),
      () =>
        h
          .caller(me)
          .users.update({ userId: me.user.id, username: 'x', email: me.user.email, password: 'new-one!' }),
    ];
    for (const attempt of attempts) {
      const error = await failureOf(attempt());
      expect([error.code, error.errors?.map((e) => e.field)]).toEqual([
        'VALIDATION_FAILED',
        ['currentPassword'],
      ]);
    }
    expect(await stored(me)).toEqual(before);
  });

  it('changes them with the right currentPassword; a new password ends every other session', async () => {
    const me = await h.makeActor();
    const phone = await secondSession(me);
    const moved = await h.caller(me).users.patch({
      userId: me.user.id,
      email: `moved-${me.user.id}@example.com`,
      currentPassword: ACTOR_PASSWORD,
    });
    expect(moved.email).toBe(`moved-${me.user.id}@example.com`);
    expect(await live(me, phone)).toBe(true); // an email change alone ends no session
    await h
      .caller(me)
      .users.patch({ userId: me.user.id, password: 'a-new-password', currentPassword: ACTOR_PASSWORD });
    expect(await verifyPassword((await stored(me))!.password_hash, 'a-new-password')).toBe(true);
    expect([await live(me), await live(me, phone)]).toEqual([true, false]);
  });

  it('keeps a 1.0 client working: a PUT repeating the current password renames without currentPassword', async () => {
    const me = await h.makeActor();
    const phone = await secondSession(me);
    const before = await stored(me);
    const renamed = await h.caller(me).users.update({
      userId: me.user.id,
      username: 'Renamed by PUT',
      email: me.user.email,
      password: ACTOR_PASSWORD,
    });
    expect(renamed.username).toBe('Renamed by PUT');
    expect((await stored(me))?.password_hash).toBe(before?.password_hash);
    expect(await live(me, phone)).toBe(true);
    // A PUT with a new password and the right currentPassword changes it.
    await h.caller(me).users.update({
      userId: me.user.id,
      username: 'Renamed by PUT',
      email: me.user.email,
      password: 'put-new-password',
      currentPassword: ACTOR_PASSWORD,
    });
    expect(await verifyPassword((await stored(me))!.password_hash, 'put-new-password')).toBe(true);
    expect(await live(me, phone)).toBe(false);
  });

  it('applies to admins on their own account too', async () => {
    const self = await h.makeActor('admin');
    expect(
      await appCode(h.caller(self).users.patch({ userId: self.user.id, password: 'no-proof-given' })),
    ).toBe('VALIDATION_FAILED');
  });

  it('counts a wrong currentPassword as a failed sign-in: the limit is reached, then even the right one is 429', async () => {
    const me = await h.makeActor();
    const guess = () =>
      h
        .caller(me, '198.51.100.7')
        .users.patch({ userId: me.user.id, password: 'x-new-pass', currentPassword: 'guess' });
    for (let i = 0; i < 3; i++) expect(await appCode(guess())).toBe('VALIDATION_FAILED');
    // Counted against the address as well as the email, as failed sign-ins are.
    const window = await h.database.db
      .selectFrom('login_throttle')
      .select('attempts')
      .where('scope', '=', 'address')
      .where('subject', '=', '198.51.100.7')
      .executeTakeFirst();
    expect(window?.attempts).toBe(3);
    const throttled = await failureOf(
      h
        .caller(me)
        .users.patch({ userId: me.user.id, password: 'x-new-pass', currentPassword: ACTOR_PASSWORD }),
    );
    expect(throttled.code).toBe('TOO_MANY_REQUESTS');
    expect(throttled.retryAfter).toBeGreaterThan(0);
    // So is a sign-in for that email, from anywhere (the email's window is shared with sign-in).
    expect(
      await appCode(
        h.caller(null, '203.0.113.8').auth.login({ email: me.user.email, password: ACTOR_PASSWORD }),
      ),
    ).toBe('TOO_MANY_REQUESTS');
    // A PUT whose password guess is wrong counts too: no unthrottled oracle through a stolen token.
    const other = await h.makeActor();
    const put = () =>
      h.caller(other).users.update({
        userId: other.user.id,
        username: 'x',
        email: other.user.email,
        password: 'guess-me',
      });
    for (let i = 0; i < 3; i++) expect(await appCode(put())).toBe('VALIDATION_FAILED');
    expect(await appCode(put())).toBe('TOO_MANY_REQUESTS');
  });
});
