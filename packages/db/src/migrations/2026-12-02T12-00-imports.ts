import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** New tables the previous release never reads: instances of it keep working (see migrate.ts). */
export const additive = true;

/**
 * Bulk imports of songs:
 * - `imports`: one per `POST /imports`: who sent it (user, API key, request id, address: what
 *   the audit events of its writes name), its format, whether it only validates
 *   (`dry_run`), where it is (`receiving` the file, `queued`, `running`, `succeeded`, `failed`),
 *   its counts, its first errors by line, and `lines_done`, the last line whose record is applied
 *   (a run that stopped, an instance killed or restarted, goes on after it).
 * - `import_chunks`: the file as it was sent, in pieces of about 1 MiB, so any instance can run
 *   the import, and after a restart; removed when the import ends.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table imports (
    id uuid primary key,
    user_id uuid not null references users (id) on delete cascade,
    api_key_id uuid,
    request_id text not null,
    address text not null,
    format text not null check (format in ('csv', 'ndjson')),
    dry_run boolean not null,
    status text not null check (status in ('receiving', 'queued', 'running', 'succeeded', 'failed')),
    bytes bigint not null default 0,
    lines_done integer not null default 0,
    read integer not null default 0,
    created integer not null default 0,
    updated integer not null default 0,
    unchanged integer not null default 0,
    failed integer not null default 0,
    errors jsonb not null default '[]',
    failure text,
    created_at timestamptz not null default date_trunc('milliseconds', now()),
    started_at timestamptz,
    finished_at timestamptz
  )`.execute(db);
  await sql`create index imports_user_idx on imports (user_id, created_at)`.execute(db);
  await sql`create table import_chunks (
    import_id uuid not null references imports (id) on delete cascade,
    n integer not null,
    data bytea not null,
    primary key (import_id, n)
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table import_chunks`.execute(db);
  await sql`drop table imports`.execute(db);
}
