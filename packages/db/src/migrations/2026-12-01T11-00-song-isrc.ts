import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** A nullable column the previous release neither reads nor writes: it keeps working. */
export const additive = true;

/**
 * `songs.isrc`: a recording's International Standard Recording Code, optional, stored as its 12
 * characters (upper case, no hyphens), unique among songs that have one (what an import matches
 * a re-delivered recording by).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table songs add column isrc text`.execute(db);
  await sql`create unique index songs_isrc_key on songs (isrc) where isrc is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index songs_isrc_key`.execute(db);
  await sql`alter table songs drop column isrc`.execute(db);
}
