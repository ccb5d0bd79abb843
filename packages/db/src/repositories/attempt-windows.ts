import { sql } from 'kysely';
import type { Db } from '../schema';
import { secondsFromNow, statement } from '../sql';
import type { ThrottleWindow } from './login-throttle';

/**
 * Counts one attempt of `scope` by `subject` (a client address, an email) in a window of
 * `windowSeconds` that starts at the first attempt, on the database's clock, and says where the
 * attempt stands: the count including it and the whole seconds until its window ends. One
 * statement on one row (`on conflict do update` locks it), so of any number of simultaneous
 * attempts, on any number of instances, each gets a distinct count.
 */
export async function countAttempt(
  db: Db,
  args: { scope: string; subject: string; windowSeconds: number },
): Promise<ThrottleWindow> {
  const { rows } = await countStatement.run(db, args);
  const row = rows[0]!;
  return { attempts: row.attempts, retryAfterSeconds: row.retry_after };
}

const countStatement = statement((db, p: { scope: string; subject: string; windowSeconds: number }) => {
  const ended = sql<boolean>`attempt_windows.window_ends_at <= now()`;
  return db
    .insertInto('attempt_windows')
    .values({
      scope: p.scope,
      subject: p.subject,
      window_ends_at: secondsFromNow(p.windowSeconds),
      attempts: 1,
    })
    .onConflict((oc) =>
      oc.columns(['scope', 'subject']).doUpdateSet({
        window_ends_at: sql`case when ${ended} then excluded.window_ends_at else attempt_windows.window_ends_at end`,
        attempts: sql`case when ${ended} then 1 else attempt_windows.attempts + 1 end`,
      }),
    )
    .returning([
      'attempts',
      sql<number>`greatest(1, ceil(extract(epoch from window_ends_at - now())))::int`.as('retry_after'),
    ]);
});
