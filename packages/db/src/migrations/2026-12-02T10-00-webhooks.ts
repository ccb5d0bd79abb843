import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** New tables the previous release never reads: instances of it keep working (see migrate.ts). */
export const additive = true;

/**
 * Webhooks and their deliveries:
 * - `webhooks`: where a user wants changes POSTed. `events` are the types (or `song.*`-style
 *   patterns) asked for; `secret` signs every delivery (it has to be kept to sign: it is shown to
 *   its owner once and never again). `from_position` is the change feed's head when the webhook
 *   was made: only events after it are sent. `failures` counts failed attempts in a row; at the
 *   limit the webhook is disabled (`disabled_at`, `disabled_reason`).
 * - `webhook_deliveries`: one per event and webhook (unique: a dispatch run again makes no
 *   second one), carrying the body it sends (the same bytes on every attempt) and the last
 *   attempt's outcome. Its id is the `webhook-id` receivers deduplicate on. The attempts
 *   themselves are jobs of the queue (pg-boss, in its own schema).
 * - `webhook_dispatch`: one row; how far in the change feed deliveries were made.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table webhooks (
    id uuid primary key,
    user_id uuid not null references users (id) on delete cascade,
    url text not null,
    events text[] not null,
    description text,
    secret text not null,
    from_position bigint not null,
    enabled boolean not null default true,
    failures integer not null default 0,
    disabled_at timestamptz,
    disabled_reason text,
    created_at timestamptz not null default date_trunc('milliseconds', now()),
    updated_at timestamptz not null default date_trunc('milliseconds', now())
  )`.execute(db);
  await sql`create index webhooks_user_idx on webhooks (user_id, created_at, id)`.execute(db);
  await sql`create table webhook_deliveries (
    id uuid primary key,
    webhook_id uuid not null references webhooks (id) on delete cascade,
    event_id uuid not null,
    event_type text not null,
    payload text not null,
    status text not null check (status in ('pending', 'succeeded', 'failed')),
    attempts integer not null default 0,
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    response_status integer,
    response_body text,
    error text,
    duration_ms integer,
    created_at timestamptz not null default date_trunc('milliseconds', now()),
    unique (webhook_id, event_id)
  )`.execute(db);
  // A webhook's deliveries, newest first (ids are time-ordered UUIDv7s).
  await sql`create index webhook_deliveries_list_idx on webhook_deliveries (webhook_id, id desc)`.execute(db);
  await sql`create table webhook_dispatch (
    id boolean primary key default true check (id),
    position bigint not null
  )`.execute(db);
  await sql`insert into webhook_dispatch (position) select head from change_feed`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table webhook_dispatch`.execute(db);
  await sql`drop table webhook_deliveries`.execute(db);
  await sql`drop table webhooks`.execute(db);
}
