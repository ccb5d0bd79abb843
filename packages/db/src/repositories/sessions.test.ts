import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { countSignInAttempt, uncountSignInAttempt } from './login-throttle';
import {
  findSessionUser,
  insertRefreshToken,
  insertSession,
  revokeSession,
  rotateRefreshToken,
  startSession,
} from './sessions';
import { deleteUser, insertUser, updateUser } from './users';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

async function userWithSession(expiresInMs = 60_000) {
  const id = uuidv7();
  await insertUser(database.db, {
    id,
    username: 'u',
    email: `${id}@example.com`,
    password_hash: 'x',
    role: 'user',
  });
  const sessionId = uuidv7();
  await insertSession(database.db, {
    id: sessionId,
    userId: id,
    expiresAt: new Date(Date.now() + expiresInMs),
  });
  return { id, sessionId };
}

describe('sessions repository', () => {
  it('finds the user of a live session only', async () => {
    const { id, sessionId } = await userWithSession();
    expect(await findSessionUser(database.db, sessionId, id)).toMatchObject({ id, role: 'user' });
    expect(await findSessionUser(database.db, sessionId, uuidv7())).toBeUndefined();
    await revokeSession(database.db, sessionId, 'test');
    expect(await findSessionUser(database.db, sessionId, id)).toBeUndefined();
  });

  it('ignores expired sessions and sees role changes and deletions at once', async () => {
    const expired = await userWithSession(-1_000);
    expect(await findSessionUser(database.db, expired.sessionId, expired.id)).toBeUndefined();
    const { id, sessionId } = await userWithSession();
    await updateUser(database.db, id, { role: 'admin' });
    expect((await findSessionUser(database.db, sessionId, id))?.role).toBe('admin');
    await deleteUser(database.db, id);
    expect(await findSessionUser(database.db, sessionId, id)).toBeUndefined();
  });

  it('rotates a refresh token once; a second use is reported as reuse', async () => {
    const { id, sessionId } = await userWithSession();
    const hash = `hash-${uuidv7()}`;
    await insertRefreshToken(database.db, { hash, sessionId, expiresAt: new Date(Date.now() + 60_000) });
    expect(await rotateRefreshToken(database.db, hash)).toEqual({ kind: 'rotated', sessionId, userId: id });
    expect(await rotateRefreshToken(database.db, hash)).toEqual({ kind: 'reused', sessionId });
    expect(await rotateRefreshToken(database.db, 'unknown')).toEqual({ kind: 'invalid' });
  });

  it('graces a second use within the grace period, by the database clock, while the session lives', async () => {
    const { id, sessionId } = await userWithSession();
    const hash = `hash-${uuidv7()}`;
    await insertRefreshToken(database.db, { hash, sessionId, expiresAt: new Date(Date.now() + 60_000) });
    expect((await rotateRefreshToken(database.db, hash, 10)).kind).toBe('rotated');
    expect(await rotateRefreshToken(database.db, hash, 10)).toEqual({
      kind: 'graced',
      sessionId,
      userId: id,
    });
    expect(await rotateRefreshToken(database.db, hash, 10)).toEqual({
      kind: 'graced',
      sessionId,
      userId: id,
    });
    // Rotated 11 seconds ago by the database's clock: a replay.
    await sql`update refresh_tokens set rotated_at = now() - interval '11 seconds' where token_hash = ${hash}`.execute(
      database.db,
    );
    expect(await rotateRefreshToken(database.db, hash, 10)).toEqual({ kind: 'reused', sessionId });
    // Within the grace period, but the session has ended: no new pair.
    await sql`update refresh_tokens set rotated_at = now() where token_hash = ${hash}`.execute(database.db);
    await revokeSession(database.db, sessionId, 'test');
    expect((await rotateRefreshToken(database.db, hash, 10)).kind).toBe('reused');
  });

  it('refuses expired refresh tokens and tokens of revoked sessions', async () => {
    const { sessionId } = await userWithSession();
    const expired = `hash-${uuidv7()}`;
    await insertRefreshToken(database.db, { hash: expired, sessionId, expiresAt: new Date(Date.now() - 1) });
    expect((await rotateRefreshToken(database.db, expired)).kind).toBe('invalid');
    const live = `hash-${uuidv7()}`;
    await insertRefreshToken(database.db, {
      hash: live,
      sessionId,
      expiresAt: new Date(Date.now() + 60_000),
    });
    await revokeSession(database.db, sessionId, 'test');
    expect((await rotateRefreshToken(database.db, live)).kind).toBe('invalid');
  });
});

describe('login throttle repository', () => {
  const fresh = () => ({
    email: `${uuidv7()}@example.com`,
    address: `198.51.100.${Math.floor(Math.random() * 250)}-${uuidv7()}`,
  });

  it('counts every attempt per email and per address, and reads the account in the same statement', async () => {
    const { email, address } = fresh();
    const first = await countSignInAttempt(database.db, { email, address, windowSeconds: 900 });
    // No account has this email yet: the counts still come back.
    expect(first.user).toBeUndefined();
    expect(first.email).toEqual({ attempts: 1, retryAfterSeconds: 900 });
    expect(first.address.attempts).toBe(1);
    await countSignInAttempt(database.db, { email, address: 'elsewhere', windowSeconds: 900 });
    const third = await countSignInAttempt(database.db, { email: `x${email}`, address, windowSeconds: 900 });
    expect(third.email.attempts).toBe(1);
    expect(third.address.attempts).toBe(2);

    const user = uuidv7();
    await insertUser(database.db, { id: user, username: 'u', email, password_hash: 'x', role: 'user' });
    const found = await countSignInAttempt(database.db, { email, address, windowSeconds: 900 });
    expect(found.user).toMatchObject({ id: user, username: 'u', email, password_hash: 'x', role: 'user' });
    expect(found.user?.created_at).toBeInstanceOf(Date);
    expect(found.email.attempts).toBe(3);
    expect(found.address.attempts).toBe(3);
    expect(found.email.retryAfterSeconds).toBeGreaterThan(890);
    expect(found.email.retryAfterSeconds).toBeLessThanOrEqual(900);

    // A sign-in clears this email's window (and only this one's), in the statement that starts
    // the session, and takes its attempt off the address.
    const sessionId = uuidv7();
    const refreshTokenHash = `hash-${uuidv7()}`;
    await startSession(database.db, {
      sessionId,
      userId: user,
      expiresAt: new Date(Date.now() + 60_000),
      refreshTokenHash,
      email,
    });
    await uncountSignInAttempt(database.db, address);
    const after = await countSignInAttempt(database.db, { email, address, windowSeconds: 900 });
    expect(after.email.attempts).toBe(1);
    expect(after.address.attempts).toBe(3);
    expect(
      (await countSignInAttempt(database.db, { email: `x${email}`, address, windowSeconds: 900 })).email
        .attempts,
    ).toBe(2);
    expect(await findSessionUser(database.db, sessionId, user)).toMatchObject({ id: user });
    expect(await rotateRefreshToken(database.db, refreshTokenHash)).toEqual({
      kind: 'rotated',
      sessionId,
      userId: user,
    });
  });

  it('gives simultaneous attempts distinct counts: none is lost, none counted twice', async () => {
    const { email, address } = fresh();
    const attempts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        countSignInAttempt(database.db, { email, address: `${address}-${i % 3}`, windowSeconds: 900 }),
      ),
    );
    expect(attempts.map((a) => a.email.attempts).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    for (let i = 0; i < 3; i++) {
      const mine = attempts.filter((_, j) => j % 3 === i).map((a) => a.address.attempts);
      expect(mine.sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, k) => k + 1));
    }
  });

  it('starts a new window when the last one ended, by the database clock', async () => {
    const { email, address } = fresh();
    await countSignInAttempt(database.db, { email, address, windowSeconds: 1 });
    expect((await countSignInAttempt(database.db, { email, address, windowSeconds: 1 })).email).toEqual({
      attempts: 2,
      retryAfterSeconds: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await countSignInAttempt(database.db, { email, address, windowSeconds: 1 })).email.attempts).toBe(
      1,
    );
  });
});
