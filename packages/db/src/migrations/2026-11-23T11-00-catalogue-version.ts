import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/**
 * A catalogue version: one number that every committed change to songs, their artist links or
 * artists moves on. It lets an instance reuse a search result it computed while the version has
 * not moved (see `repositories/songs.ts`), exactly, across every instance on the database.
 *
 * The bump is a deferred constraint trigger: it runs at commit, once per transaction (a
 * transaction-local setting remembers it), so the version row is locked only for the instant
 * between the bump and the commit. A writer waiting for it waits only for another transaction
 * that is committing: catalogue writes cannot deadlock on it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table catalogue_version (
    id boolean primary key default true check (id),
    version bigint not null
  )`.execute(db);
  await sql`insert into catalogue_version (id, version) values (true, 1)`.execute(db);
  await sql`
    create function bump_catalogue_version() returns trigger language plpgsql as $$
    begin
      if current_setting('music.catalogue_bumped', true) = txid_current()::text then
        return null;
      end if;
      perform set_config('music.catalogue_bumped', txid_current()::text, true);
      update catalogue_version set version = version + 1 where id;
      return null;
    end $$`.execute(db);
  for (const table of ['songs', 'song_artists', 'artists']) {
    await sql`create constraint trigger ${sql.ref(`${table}_catalogue_version`)}
      after insert or update or delete on ${sql.table(table)}
      deferrable initially deferred
      for each row execute function bump_catalogue_version()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['songs', 'song_artists', 'artists']) {
    await sql`drop trigger ${sql.ref(`${table}_catalogue_version`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function bump_catalogue_version()`.execute(db);
  await sql`drop table catalogue_version`.execute(db);
}
