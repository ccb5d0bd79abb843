import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** New tables the previous release never reads: instances of it keep working (see migrate.ts). */
export const additive = true;

/**
 * The outbox of the change feed (and of everything else that follows changes):
 * - `change_events`: one row per change a write made (a song created, a playlist that lost a
 *   deleted song...), inserted in the write's own transaction, so it exists exactly when the
 *   write committed. `seq` is the insertion order. `position` is null until the sequencer (see
 *   repositories/change-events.ts) numbers the row: it numbers committed rows only, in the order
 *   they became visible, so positions follow commit order and never change once given.
 *   `audience` says who may read the event (`everyone`, `owner`, `admins`); `redacted` is what a
 *   reader outside the audience gets instead, where they may still learn of it (a public
 *   playlist made private: `{id, isPublic: false}`).
 * - `change_feed`: one row; `head` is the last position given, `horizon` the last position
 *   removed by the retention (a cursor before it has lost events: 410).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table change_events (
    seq bigint generated always as identity primary key,
    position bigint unique,
    id uuid not null,
    type text not null,
    at timestamptz not null default date_trunc('milliseconds', now()),
    resource_type text not null,
    resource_id uuid not null,
    data jsonb not null,
    audience text not null check (audience in ('everyone', 'owner', 'admins')),
    owner_id uuid,
    redacted jsonb
  )`.execute(db);
  // What the sequencer numbers next: rows not numbered yet, in insertion order.
  await sql`create index change_events_unsequenced_idx on change_events (seq) where position is null`.execute(
    db,
  );
  await sql`create table change_feed (
    id boolean primary key default true check (id),
    head bigint not null default 0,
    horizon bigint not null default 0
  )`.execute(db);
  await sql`insert into change_feed default values`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table change_feed`.execute(db);
  await sql`drop table change_events`.execute(db);
}
