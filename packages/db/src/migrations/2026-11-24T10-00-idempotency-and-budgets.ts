import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** New tables the previous release never reads: instances of it keep working (see migrate.ts). */
export const additive = true;

/**
 * Two pieces of state every API instance must share (version 1.1: idempotency keys and request budgets):
 *
 * - `idempotency_keys`: one row per caller and `Idempotency-Key`. A request claims its key by
 *   inserting a `pending` row (the primary key makes exactly one claimer win, on any instance),
 *   then stores its answer (`done`). `attempt` names the claim, so only the request that holds
 *   the key may complete or release it. `created_at` is on the database's clock: a key lives 24 h.
 * - `request_budgets`: requests counted per caller and one-minute window. Instances add what they
 *   counted (`count = count + delta`, atomic per row) and learn the total from the same statement.
 *
 * Each comes with the index its clean-up deletes by; the budgets' one also finds, every sync,
 * the few callers over their limit in the current window (a range of it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table idempotency_keys (
    caller text not null,
    key text not null,
    method text not null,
    path text not null,
    body_hash text not null,
    attempt text not null,
    state text not null check (state in ('pending', 'done')),
    status integer,
    headers jsonb,
    body text,
    created_at timestamptz not null default now(),
    primary key (caller, key)
  )`.execute(db);
  await sql`create index idempotency_keys_created_at_idx on idempotency_keys (created_at)`.execute(db);
  await sql`create table request_budgets (
    caller text not null,
    window_start timestamptz not null,
    count integer not null,
    primary key (caller, window_start)
  )`.execute(db);
  await sql`create index request_budgets_window_count_idx on request_budgets (window_start, count)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table request_budgets`.execute(db);
  await sql`drop table idempotency_keys`.execute(db);
}
