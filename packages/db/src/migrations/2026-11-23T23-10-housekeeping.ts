import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

export const additive = true;

/**
 * When each clean-up job may run next. Every instance offers to run a job periodically; the one
 * whose `update ... where next_run_at <= now()` claims the row runs it, the others find the
 * period taken. The database's clock decides, so instances with skewed clocks agree.
 * Indexes for the clean-up's range deletes come with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table housekeeping (
    job text primary key,
    next_run_at timestamptz not null,
    last_run_at timestamptz,
    last_removed integer
  )`.execute(db);
  await sql`create index sessions_expires_at_idx on sessions (expires_at)`.execute(db);
  await sql`create index sessions_revoked_at_idx on sessions (revoked_at) where revoked_at is not null`.execute(
    db,
  );
  await sql`create index refresh_tokens_expires_at_idx on refresh_tokens (expires_at)`.execute(db);
  await sql`create index login_failures_created_at_idx on login_failures (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index login_failures_created_at_idx`.execute(db);
  await sql`drop index refresh_tokens_expires_at_idx`.execute(db);
  await sql`drop index sessions_revoked_at_idx`.execute(db);
  await sql`drop index sessions_expires_at_idx`.execute(db);
  await sql`drop table housekeeping`.execute(db);
}
