import type { Db } from '../schema';
import { runSql } from '../sql';

/**
 * Claims this period of a clean-up job: true for exactly one caller per period, whatever the
 * number of instances asking. The first claim ever inserts the row; later ones move `next_run_at`
 * on only if it is due (the row lock makes a concurrent claimer re-check against the moved value).
 * Due and next are measured on the database's clock.
 */
export async function claimHousekeeping(db: Db, job: string, periodSeconds: number): Promise<boolean> {
  const { rows } = await runSql<{ job: string }>(
    db,
    `insert into housekeeping as h (job, next_run_at, last_run_at)
       values ($1, now() + make_interval(secs => $2), now())
     on conflict (job) do update set next_run_at = excluded.next_run_at, last_run_at = now()
       where h.next_run_at <= now()
     returning h.job`,
    [job, periodSeconds],
  );
  return rows.length === 1;
}

/** Brings the job's next run forward (a run that hit its bound left work behind). */
export async function hurryHousekeeping(db: Db, job: string, inSeconds: number): Promise<void> {
  await runSql(
    db,
    `update housekeeping set next_run_at = least(next_run_at, now() + make_interval(secs => $2))
      where job = $1`,
    [job, inSeconds],
  );
}

export async function recordHousekeeping(db: Db, job: string, removed: number): Promise<void> {
  await runSql(db, 'update housekeeping set last_removed = $2 where job = $1', [job, removed]);
}

/** What one clean-up run removed, per kind of record. */
export interface Removed {
  sessions: number;
  refreshTokens: number;
  throttleWindows: number;
  loginFailures: number;
}

/**
 * Removes what no request can use any more, at most `limit` rows of each kind, oldest first by
 * the database's clock:
 * - sessions that expired or were revoked (their refresh tokens go with them);
 * - refresh tokens past their own expiry. A spent (rotated) token is kept until then on purpose:
 *   presenting it again is how a stolen copy is detected (the session is revoked), and the owner
 *   of a copy may come back with it any time until it would have expired;
 * - throttle windows that ended, and failures recorded by the release before the throttle table.
 */
export async function removeExpired(
  db: Db,
  args: { limit: number; throttleWindowSeconds: number },
): Promise<Removed> {
  const sessions = await deleted(
    db,
    `delete from sessions where id = any(array(
       select id from sessions where expires_at < now() or revoked_at is not null limit $1))
       and (expires_at < now() or revoked_at is not null)`,
    [args.limit],
  );
  const refreshTokens = await deleted(
    db,
    `delete from refresh_tokens where token_hash = any(array(
       select token_hash from refresh_tokens where expires_at < now() limit $1))`,
    [args.limit],
  );
  const throttleWindows = await deleted(
    db,
    `delete from login_throttle where (scope, subject) in (
       select scope, subject from login_throttle
        where window_started_at <= now() - make_interval(secs => $2) limit $1)
       and window_started_at <= now() - make_interval(secs => $2)`,
    [args.limit, args.throttleWindowSeconds],
  );
  const loginFailures = await deleted(
    db,
    `delete from login_failures where id = any(array(
       select id from login_failures where created_at <= now() - make_interval(secs => $2) limit $1))`,
    [args.limit, args.throttleWindowSeconds],
  );
  return { sessions, refreshTokens, throttleWindows, loginFailures };
}

async function deleted(db: Db, text: string, values: unknown[]): Promise<number> {
  const result = await runSql(db, text, values);
  return Number(result.numAffectedRows ?? 0n);
}
