import type { Db } from '../client';
import type { UserRow } from '../schema';
import { runSql } from '../sql';

export async function recordLoginFailure(db: Db, failure: { email: string; address: string }): Promise<void> {
  await db.insertInto('login_failures').values(failure).execute();
}

export interface FailureWindow {
  count: number;
  /** When the oldest failure in the window was recorded (null when none). */
  oldest: Date | null;
}

/** What a sign-in needs to know before it verifies a password. */
export interface SignInState {
  /** The account with this email, if there is one. */
  user: UserRow | undefined;
  /** Failures recorded since `since` for this email, and for this client address. */
  failures: { email: FailureWindow; address: FailureWindow };
}

/**
 * The account and both throttle windows in one statement: the read every sign-in attempt makes
 * before its password is verified. Written once here rather than built per request, and one
 * statement rather than two, because that work shares the cores with the hashing (README,
 * Performance). Always one row: the counts, and the account's columns (all null for an email no
 * account has).
 */
const SIGN_IN_STATE_SQL = `select u.id, u.username, u.email, u.password_hash, u.role, u.created_at, u.updated_at,
    f.email_count, f.email_oldest, f.address_count, f.address_oldest
  from (select (count(*) filter (where email = $1))::int as email_count,
               min(created_at) filter (where email = $1) as email_oldest,
               (count(*) filter (where address = $2))::int as address_count,
               min(created_at) filter (where address = $2) as address_oldest
          from login_failures
         where created_at > $3 and (email = $1 or address = $2)) f
  left join users u on u.email = $1`;

/** The account's columns are typed as present: they are read only when `id` is not null. */
interface SignInStateRow extends Omit<UserRow, 'id'> {
  id: string | null;
  email_count: number;
  email_oldest: Date | null;
  address_count: number;
  address_oldest: Date | null;
}

export async function findSignInState(
  db: Db,
  args: { email: string; address: string; since: Date },
): Promise<SignInState> {
  const { rows } = await runSql<SignInStateRow>(db, SIGN_IN_STATE_SQL, [
    args.email,
    args.address,
    args.since,
  ]);
  const row = rows[0]!;
  const { email_count, email_oldest, address_count, address_oldest, id, ...account } = row;
  return {
    user: id === null ? undefined : { id, ...account },
    failures: {
      email: { count: Number(email_count), oldest: email_oldest },
      address: { count: Number(address_count), oldest: address_oldest },
    },
  };
}

export async function pruneLoginFailures(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('login_failures').where('created_at', '<', before).execute();
}
