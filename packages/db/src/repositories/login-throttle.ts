import { sql } from 'kysely';
import type { Db, UserRow } from '../schema';
import { secondsAgo, statement } from '../sql';

/** An attempt's place in its window: the count including it, and when the window ends. */
export interface ThrottleWindow {
  attempts: number;
  /** Whole seconds until the window ends (at least 1), by the database's clock. */
  retryAfterSeconds: number;
}

/** What a sign-in knows before it verifies a password. */
export interface SignInAttempt {
  /** The account with this email, if there is one. */
  user: UserRow | undefined;
  /** The windows of this email and this client address, this attempt counted. */
  email: ThrottleWindow;
  address: ThrottleWindow;
}

/**
 * Counts one sign-in attempt for the email and for the client address, and reads the account,
 * in one statement, before any password is verified. Each counter is one row updated in place
 * (`on conflict do update` locks it), so of N simultaneous attempts, on any number of
 * instances, each gets a distinct count: the caller checks the password only when both counts
 * are within their limits. A window starts at its first attempt and ends `windowSeconds` later on
 * the database's clock; an application server's clock plays no part.
 *
 * The two rows are always locked in the same order (email, then address), so concurrent
 * attempts cannot deadlock on them.
 */
const countAttemptStatement = statement(
  (db, p: { email: string; address: string; windowSeconds: number }) => {
    const windowEnded = sql<boolean>`login_throttle.window_started_at <= ${secondsAgo(p.windowSeconds)}`;
    const secondsLeft = sql<number>`greatest(1, ceil(extract(epoch from
    login_throttle.window_started_at + make_interval(secs => ${p.windowSeconds}) - now())))::int`;
    return db
      .with('attempt', (db) =>
        db
          .insertInto('login_throttle')
          .values([
            { scope: 'email', subject: p.email, window_started_at: sql`now()`, attempts: 1 },
            { scope: 'address', subject: p.address, window_started_at: sql`now()`, attempts: 1 },
          ])
          .onConflict((oc) =>
            oc.columns(['scope', 'subject']).doUpdateSet({
              window_started_at: sql`case when ${windowEnded} then now() else login_throttle.window_started_at end`,
              attempts: sql`case when ${windowEnded} then 1 else login_throttle.attempts + 1 end`,
            }),
          )
          .returning(['scope', 'attempts', secondsLeft.as('retry_after')]),
      )
      .selectFrom((eb) =>
        eb.selectFrom('attempt').select(['attempts', 'retry_after']).where('scope', '=', 'email').as('e'),
      )
      .crossJoin((eb) =>
        eb.selectFrom('attempt').select(['attempts', 'retry_after']).where('scope', '=', 'address').as('a'),
      )
      .leftJoin('users as u', (join) => join.on('u.email', '=', p.email))
      .select([
        'u.id',
        'u.username',
        'u.email',
        'u.password_hash',
        'u.role',
        'u.created_at',
        'u.updated_at',
        'e.attempts as email_attempts',
        'e.retry_after as email_retry_after',
        'a.attempts as address_attempts',
        'a.retry_after as address_retry_after',
      ]);
  },
);

export async function countSignInAttempt(
  db: Db,
  args: { email: string; address: string; windowSeconds: number },
): Promise<SignInAttempt> {
  const { rows } = await countAttemptStatement.run(db, args);
  const { email_attempts, email_retry_after, address_attempts, address_retry_after, ...account } = rows[0]!;
  return {
    // A left join: the account's columns are all there exactly when its id is.
    user: account.id === null ? undefined : (account as UserRow),
    email: { attempts: email_attempts, retryAfterSeconds: email_retry_after },
    address: { attempts: address_attempts, retryAfterSeconds: address_retry_after },
  };
}

/**
 * A successful sign-in was not a failure: it comes off its address's count (a busy office or a
 * proxy that signs many people in must not lock itself out). Its own statement, after the
 * email's window was cleared, so no statement ever locks the address row before an email row.
 */
export async function uncountSignInAttempt(db: Db, address: string): Promise<void> {
  await uncountStatement.run(db, { address });
}

const uncountStatement = statement((db, p: { address: string }) =>
  db
    .updateTable('login_throttle')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('scope', '=', 'address')
    .where('subject', '=', p.address)
    .where('attempts', '>', 0),
);

/**
 * A password proven right by a signed-in caller (before changing their own email or password)
 * is forgiven as a sign-in is: the email's window is cleared, then the attempt comes off its
 * address's count. Two statements in that order, like a sign-in's, so no statement ever locks
 * the address row before an email row.
 */
export async function forgiveSignInAttempt(db: Db, args: { email: string; address: string }): Promise<void> {
  await clearEmailStatement.run(db, { email: args.email });
  await uncountStatement.run(db, { address: args.address });
}

const clearEmailStatement = statement((db, p: { email: string }) =>
  db.deleteFrom('login_throttle').where('scope', '=', 'email').where('subject', '=', p.email),
);
