import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** A new table the previous release never reads: instances of it keep working (see migrate.ts). */
export const additive = true;

/**
 * `audit_events`: one row per write the API made (who, what, to which record, the fields it
 * changed with their values before and after), inserted in the transaction of the write itself,
 * so a write that rolls back leaves none. `at` is the database's clock in whole milliseconds (the
 * precision the list's cursor carries); events are read newest first by (`at`, `id`). The actor
 * and the target are plain ids, not foreign keys: an event outlives the user, key or record it
 * names. Removed by the housekeeping once older than AUDIT_RETENTION_DAYS.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table audit_events (
    id uuid primary key,
    at timestamptz not null default date_trunc('milliseconds', now()),
    actor_user_id uuid,
    actor_api_key_id uuid,
    action text not null,
    target_type text not null,
    target_id uuid not null,
    changes jsonb not null default '{}'::jsonb,
    request_id text not null,
    address text not null
  )`.execute(db);
  // Newest first overall (and the retention's "older than"), per target, per actor.
  await sql`create index audit_events_at_idx on audit_events (at desc, id desc)`.execute(db);
  await sql`create index audit_events_target_idx
    on audit_events (target_type, target_id, at desc, id desc)`.execute(db);
  await sql`create index audit_events_actor_idx
    on audit_events (actor_user_id, at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table audit_events`.execute(db);
}
