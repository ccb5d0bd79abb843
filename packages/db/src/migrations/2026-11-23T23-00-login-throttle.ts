import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** A new table the previous release never reads: instances of it keep working (see migrate.ts). */
export const additive = true;

/**
 * Sign-in throttling as one counter per email and per client address, in a fixed window that
 * starts at the first attempt and is measured on the database's clock. An attempt is counted
 * (one upsert, atomic per row) before its password is checked, so however many arrive at once,
 * on however many instances, no more than the limit are checked.
 *
 * `login_failures` (one row per failure, counted by each instance) stays for the release before
 * this one during a rolling deploy; the service's clean-up empties it. Drop it in a later release.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table login_throttle (
    scope text not null check (scope in ('email', 'address')),
    subject text not null,
    window_started_at timestamptz not null,
    attempts integer not null,
    primary key (scope, subject)
  )`.execute(db);
  await sql`create index login_throttle_window_idx on login_throttle (window_started_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table login_throttle`.execute(db);
}
