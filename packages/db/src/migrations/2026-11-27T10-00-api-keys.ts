import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** A new table the previous release never reads: instances of it keep working (see migrate.ts). */
export const additive = true;

/**
 * API keys: credentials a user makes for a program, each limited to some scopes. The token
 * itself is never stored: `prefix` (the token's first characters, unique, shown in listings) finds
 * the row, and `token_hash` (SHA-256 of the whole token, hex) proves it. A key goes with its user;
 * deleting it takes effect on the next request on every instance, since each request reads the
 * row. `last_used_at` is written in batches, not by every request that uses the key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table api_keys (
    id uuid primary key,
    user_id uuid not null references users (id) on delete cascade,
    name text not null,
    scopes text[] not null,
    prefix text not null unique,
    token_hash text not null,
    created_at timestamptz not null default now(),
    expires_at timestamptz,
    last_used_at timestamptz
  )`.execute(db);
  await sql`create index api_keys_user_idx on api_keys (user_id, created_at, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table api_keys`.execute(db);
}
