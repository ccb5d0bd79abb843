import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** A table the previous release does not know: it keeps working. */
export const additive = true;

/**
 * `read_positions`: where each user's last write left the primary's WAL, so that user's reads go
 * to a read replica only once it has replayed that far (read-your-writes, on every instance).
 * Unlogged: a position matters for seconds, is read on the primary only, and writing one must not
 * itself add WAL for the replicas to replay. No foreign key (an unlogged table's rows may vanish
 * in a crash, and a deleted user's position is harmless); the clean-up removes old ones. No index
 * but the key: a user's every write updates one row, and an update that changes no indexed
 * column stays on its page (HOT, room left by the fill factor) instead of adding index entries the next lookups step over
 * (measured: 4-5 times the buffers of a playlist add while it was indexed on `written_at`). The
 * table holds one row per user who wrote in the last hour: the clean-up reads it whole.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create unlogged table read_positions (
      user_id uuid primary key,
      lsn pg_lsn not null,
      written_at timestamptz not null default now()
    ) with (fillfactor = 50)
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table read_positions`.execute(db);
}
