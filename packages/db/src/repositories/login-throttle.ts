import type { Db, UserRow } from '../schema';
import { runSql } from '../sql';

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
const COUNT_ATTEMPT_SQL = `with attempt as (
    insert into login_throttle as t (scope, subject, window_started_at, attempts)
    values ('email', $1, now(), 1), ('address', $2, now(), 1)
    on conflict (scope, subject) do update set
      window_started_at = case when t.window_started_at <= now() - make_interval(secs => $3)
                               then now() else t.window_started_at end,
      attempts = case when t.window_started_at <= now() - make_interval(secs => $3)
                      then 1 else t.attempts + 1 end
    returning t.scope, t.attempts,
      greatest(1, ceil(extract(epoch from t.window_started_at + make_interval(secs => $3) - now())))::int
        as retry_after
  )
  select u.id, u.username, u.email, u.password_hash, u.role, u.created_at, u.updated_at,
    e.attempts as email_attempts, e.retry_after as email_retry_after,
    a.attempts as address_attempts, a.retry_after as address_retry_after
  from (select attempts, retry_after from attempt where scope = 'email') e
  cross join (select attempts, retry_after from attempt where scope = 'address') a
  left join users u on u.email = $1`;

/** The account's columns are typed as present: they are read only when `id` is not null. */
interface AttemptRow extends Omit<UserRow, 'id'> {
  id: string | null;
  email_attempts: number;
  email_retry_after: number;
  address_attempts: number;
  address_retry_after: number;
}

export async function countSignInAttempt(
  db: Db,
  args: { email: string; address: string; windowSeconds: number },
): Promise<SignInAttempt> {
  const { rows } = await runSql<AttemptRow>(db, COUNT_ATTEMPT_SQL, [
    args.email,
    args.address,
    args.windowSeconds,
  ]);
  const { id, email_attempts, email_retry_after, address_attempts, address_retry_after, ...account } =
    rows[0]!;
  return {
    user: id === null ? undefined : { id, ...account },
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
  await runSql(
    db,
    `update login_throttle set attempts = attempts - 1
      where scope = 'address' and subject = $1 and attempts > 0`,
    [address],
  );
}
