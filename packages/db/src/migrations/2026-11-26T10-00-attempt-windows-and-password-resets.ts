import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** New tables the previous release never reads: instances of it keep working (see migrate.ts). */
export const additive = true;

/**
 * Two things version 1.2 adds to accounts:
 *
 * - `attempt_windows`: limits on actions that cost the service (an argon2 hash) or someone's
 *   mailbox, counted per (scope, subject) in a fixed window on the database's clock, shared by
 *   every instance: sign-ups per client address an hour, password-reset requests per email and
 *   per address a quarter hour. One row per subject, updated in place (`on conflict do update`
 *   locks it), so however many attempts arrive at once each gets a distinct count. Unlike
 *   `login_throttle`, a row says when its own window ends, so windows of any length share the
 *   table and its clean-up.
 * - `password_resets`: single-use reset tokens, stored only as SHA-256 hashes, valid until
 *   `expires_at`; `used_at` is set by the one confirmation that spends it. They go with their
 *   user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table attempt_windows (
    scope text not null,
    subject text not null,
    window_ends_at timestamptz not null,
    attempts integer not null,
    primary key (scope, subject)
  )`.execute(db);
  await sql`create index attempt_windows_ends_idx on attempt_windows (window_ends_at)`.execute(db);
  await sql`create table password_resets (
    token_hash text primary key,
    user_id uuid not null references users (id) on delete cascade,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at timestamptz
  )`.execute(db);
  await sql`create index password_resets_user_idx on password_resets (user_id)`.execute(db);
  await sql`create index password_resets_expires_idx on password_resets (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table password_resets`.execute(db);
  await sql`drop table attempt_windows`.execute(db);
}
