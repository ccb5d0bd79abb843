import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** A nullable column the previous release neither reads nor writes: it keeps working. */
export const additive = true;

/**
 * `songs.external_id`: the id a song has in the system it came from (a label's catalogue
 * number, another service's id), optional, unique among songs that have one: what a bulk import
 * matches a re-delivered song by when it has no ISRC.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table songs add column external_id text`.execute(db);
  await sql`create unique index songs_external_id_key on songs (external_id) where external_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index songs_external_id_key`.execute(db);
  await sql`alter table songs drop column external_id`.execute(db);
}
