import { sql } from 'kysely';
import type { Db } from '../client';

export async function recordLoginFailure(db: Db, failure: { email: string; address: string }): Promise<void> {
  await db.insertInto('login_failures').values(failure).execute();
}

export interface FailureWindow {
  count: number;
  /** When the oldest failure in the window was recorded (null when none). */
  oldest: Date | null;
}

/** Failures recorded since `since` for one email and for one client address, in one round trip. */
export async function countLoginFailures(
  db: Db,
  args: { email: string; address: string; since: Date },
): Promise<{ email: FailureWindow; address: FailureWindow }> {
  const row = await db
    .selectFrom('login_failures')
    .select([
      sql<number>`(count(*) filter (where email = ${args.email}))::int`.as('email_count'),
      sql<Date | null>`min(created_at) filter (where email = ${args.email})`.as('email_oldest'),
      sql<number>`(count(*) filter (where address = ${args.address}))::int`.as('address_count'),
      sql<Date | null>`min(created_at) filter (where address = ${args.address})`.as('address_oldest'),
    ])
    .where('created_at', '>', args.since)
    .where((eb) => eb.or([eb('email', '=', args.email), eb('address', '=', args.address)]))
    .executeTakeFirstOrThrow();
  return {
    email: { count: Number(row.email_count), oldest: row.email_oldest },
    address: { count: Number(row.address_count), oldest: row.address_oldest },
  };
}

export async function pruneLoginFailures(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('login_failures').where('created_at', '<', before).execute();
}
