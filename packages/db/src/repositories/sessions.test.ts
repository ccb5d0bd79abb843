import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../ids';
import { createTestDatabase, type TestDatabase } from '../testing';
import { findSignInState, pruneLoginFailures, recordLoginFailure } from './login-failures';
import {
  findSessionUser,
  insertRefreshToken,
  insertSession,
  revokeSession,
  rotateRefreshToken,
  startSession,
} from './sessions';
import { deleteUser, insertUser, updateUser } from './users';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

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

describe('login failures repository', () => {
  it('reads the account and the failures per email and per address within the window', async () => {
    const email = `${uuidv7()}@example.com`;
    const address = `198.51.100.${Math.floor(Math.random() * 250)}-${uuidv7()}`;
    await recordLoginFailure(database.db, { email, address });
    await recordLoginFailure(database.db, { email, address: 'elsewhere' });
    await recordLoginFailure(database.db, { email: 'other@example.com', address });
    const before = await findSignInState(database.db, {
      email,
      address,
      since: new Date(Date.now() - 60_000),
    });
    // No account has this email yet: the counts still come back.
    expect(before.user).toBeUndefined();
    const counts = before.failures;
    expect(counts.email.count).toBe(2);
    expect(counts.address.count).toBe(2);
    expect(counts.email.oldest).toBeInstanceOf(Date);
    const later = await findSignInState(database.db, {
      email,
      address,
      since: new Date(Date.now() + 60_000),
    });
    expect(later.failures.email).toEqual({ count: 0, oldest: null });
    // A sign-in clears the email's failures, in the statement that starts the session.
    const user = uuidv7();
    await insertUser(database.db, { id: user, username: 'u', email, password_hash: 'x', role: 'user' });
    const found = await findSignInState(database.db, { email, address, since: new Date(0) });
    expect(found.user).toMatchObject({ id: user, username: 'u', email, password_hash: 'x', role: 'user' });
    expect(found.user?.created_at).toBeInstanceOf(Date);
    expect(found.failures.email.count).toBe(2);
    const sessionId = uuidv7();
    const refreshTokenHash = `hash-${uuidv7()}`;
    await startSession(database.db, {
      sessionId,
      userId: user,
      expiresAt: new Date(Date.now() + 60_000),
      refreshTokenHash,
      email,
    });
    expect(
      (await findSignInState(database.db, { email, address, since: new Date(0) })).failures.email.count,
    ).toBe(0);
    expect(await findSessionUser(database.db, sessionId, user)).toMatchObject({ id: user });
    expect(await rotateRefreshToken(database.db, refreshTokenHash)).toEqual({
      kind: 'rotated',
      sessionId,
      userId: user,
    });
    await pruneLoginFailures(database.db, new Date(Date.now() + 1000));
    expect(
      (await findSignInState(database.db, { email, address, since: new Date(0) })).failures.address.count,
    ).toBe(0);
  });
});
