import { sql } from 'kysely';
import type { Db, UserRow } from '../schema';
import { secondsFromNow, statement } from '../sql';
import { USER_COLUMNS } from './users';

/**
 * Stores a reset token (its hash) for the account with `email`, if there is one, and returns that
 * account. One statement whether or not the account exists: the request that asked for it takes
 * the same path and about the same time either way.
 */
export async function createResetForEmail(
  db: Db,
  args: { email: string; tokenHash: string; ttlSeconds: number },
): Promise<Pick<UserRow, 'id' | 'username' | 'email'> | undefined> {
  const { rows } = await forEmailStatement.run(db, args);
  return rows[0];
}

const forEmailStatement = statement((db, p: { email: string; tokenHash: string; ttlSeconds: number }) =>
  db
    .with('reset', (db) =>
      db
        .insertInto('password_resets')
        .columns(['token_hash', 'user_id', 'expires_at'])
        .expression((eb) =>
          eb
            .selectFrom('users')
            .select([
              eb.val(p.tokenHash).as('token_hash'),
              'id',
              secondsFromNow(p.ttlSeconds).as('expires_at'),
            ])
            .where('email', '=', p.email),
        )
        .returning('user_id'),
    )
    .selectFrom('reset')
    .innerJoin('users', 'users.id', 'reset.user_id')
    .select(['users.id', 'users.username', 'users.email']),
);

/** Stores a reset token (its hash) for the user `userId`; its expiry, by the database's clock. */
export async function createResetForUser(
  db: Db,
  args: { userId: string; tokenHash: string; ttlSeconds: number },
): Promise<Date> {
  const row = await db
    .insertInto('password_resets')
    .values({ token_hash: args.tokenHash, user_id: args.userId, expires_at: secondsFromNow(args.ttlSeconds) })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return row.expires_at;
}

/** The user a live (unused, unexpired) reset token belongs to, without spending it. */
export async function findResetUser(db: Db, tokenHash: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('password_resets as r')
    .innerJoin('users', 'users.id', 'r.user_id')
    .select(USER_COLUMNS)
    .where('r.token_hash', '=', tokenHash)
    .where('r.used_at', 'is', null)
    .where('r.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

/**
 * Spends a live reset token, and every other live token of its user with it (one reset is
 * enough; an older link in a mailbox must not work after it): the user's id, or undefined when
 * the token was unknown, used or expired. Of two confirmations of one token, exactly one spends it.
 */
export async function spendReset(db: Db, tokenHash: string): Promise<string | undefined> {
  const spent = await db
    .updateTable('password_resets')
    .set({ used_at: sql<Date>`now()` })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  if (!spent) return undefined;
  await db
    .updateTable('password_resets')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', spent.user_id)
    .where('used_at', 'is', null)
    .execute();
  return spent.user_id;
}
