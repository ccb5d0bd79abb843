import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { countAttempt } from './attempt-windows';
import { removeExpired } from './housekeeping';
import { createResetForEmail, createResetForUser, findResetUser, spendReset } from './password-resets';
import { insertUser } from './users';

const database = await createTestDatabase();
afterAll(() => database.close());
const db = database.db;

describe('attempt windows', () => {
  it('counts concurrent attempts distinctly, in a window that ends on the database clock', async () => {
    const subject = `address-${uuidv7()}`;
    const counts = await Promise.all(
      Array.from({ length: 12 }, () => countAttempt(db, { scope: 'signup', subject, windowSeconds: 3600 })),
    );
    expect(counts.map((c) => c.attempts).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    for (const count of counts) expect(count.retryAfterSeconds).toBeGreaterThan(3590);
    // Another scope, or another subject, has a window of its own.
    expect((await countAttempt(db, { scope: 'reset-address', subject, windowSeconds: 900 })).attempts).toBe(
      1,
    );
    // Once the window has ended, the next attempt starts a new one.
    await sql`update attempt_windows set window_ends_at = now() - interval '1 second'
      where scope = 'signup' and subject = ${subject}`.execute(db);
    const fresh = await countAttempt(db, { scope: 'signup', subject, windowSeconds: 3600 });
    expect(fresh.attempts).toBe(1);
    expect(fresh.retryAfterSeconds).toBeGreaterThan(3590);
  });

  it('are removed by the clean-up once they ended, and kept while they run', async () => {
    const [ended, running] = [`ended-${uuidv7()}`, `running-${uuidv7()}`];
    await countAttempt(db, { scope: 'signup', subject: ended, windowSeconds: 3600 });
    await countAttempt(db, { scope: 'signup', subject: running, windowSeconds: 3600 });
    await sql`update attempt_windows set window_ends_at = now() - interval '1 second'
      where subject = ${ended}`.execute(db);
    const removed = await removeExpired(db, { limit: 1000, throttleWindowSeconds: 900 });
    expect(removed.attemptWindows).toBeGreaterThanOrEqual(1);
    const left = await db
      .selectFrom('attempt_windows')
      .select('subject')
      .where('subject', 'in', [ended, running])
      .execute();
    expect(left).toEqual([{ subject: running }]);
  });
});

describe('password resets', () => {
  const user = async () => {
    const id = uuidv7();
    return insertUser(db, { id, username: 'r', email: `reset-${id}@example.com`, password_hash: 'x' });
  };

  it('stores a token for an existing email only, and spends it once, with every other token of the user', async () => {
    const account = await user();
    expect(
      await createResetForEmail(db, {
        email: 'nobody@example.com',
        tokenHash: `h-${uuidv7()}`,
        ttlSeconds: 1800,
      }),
    ).toBeUndefined();
    const first = `h-${uuidv7()}`;
    const second = `h-${uuidv7()}`;
    expect(
      await createResetForEmail(db, { email: account.email, tokenHash: first, ttlSeconds: 1800 }),
    ).toEqual({
      id: account.id,
      username: 'r',
      email: account.email,
    });
    const expires = await createResetForUser(db, { userId: account.id, tokenHash: second, ttlSeconds: 1800 });
    expect(expires.getTime()).toBeGreaterThan(Date.now() + 1_700_000);
    expect((await findResetUser(db, first))?.id).toBe(account.id);
    const spent = await Promise.all([spendReset(db, first), spendReset(db, first)]);
    expect(spent.filter((id) => id !== undefined)).toEqual([account.id]);
    // The other link is spent with it; a spent or unknown token names nobody.
    expect(await findResetUser(db, second)).toBeUndefined();
    expect(await spendReset(db, second)).toBeUndefined();
    expect(await spendReset(db, 'unknown')).toBeUndefined();
  });

  it('refuses an expired token, and the clean-up removes it', async () => {
    const account = await user();
    const hash = `h-${uuidv7()}`;
    await createResetForUser(db, { userId: account.id, tokenHash: hash, ttlSeconds: 1800 });
    await sql`update password_resets set expires_at = now() - interval '1 second' where token_hash = ${hash}`.execute(
      db,
    );
    expect(await findResetUser(db, hash)).toBeUndefined();
    expect(await spendReset(db, hash)).toBeUndefined();
    const removed = await removeExpired(db, { limit: 1000, throttleWindowSeconds: 900 });
    expect(removed.passwordResets).toBeGreaterThanOrEqual(1);
    expect(
      await db.selectFrom('password_resets').select('token_hash').where('token_hash', '=', hash).execute(),
    ).toEqual([]);
  });
});
