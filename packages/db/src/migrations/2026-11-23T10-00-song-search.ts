import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/**
 * Song search reads one column: `songs.search_text` holds the title, the album and every linked
 * artist's name (one per line, lower-cased), kept by triggers, with one trigram index. Lower-cased
 * once here, a search is a case-sensitive LIKE of the lower-cased term, which PostgreSQL checks
 * about twice as fast as ILIKE. Searching three
 * indexes and a join (title, album, artist names) made PostgreSQL fall back to sequential scans
 * for common words on 100k songs (~110 ms a query); one indexed column answers them from one
 * bitmap scan. Lines are separated by a newline, which no searchable text contains (control
 * characters are refused by validation), so a match never spans two fields.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table songs add column search_text text not null default ''`.execute(db);
  await sql`
    create function song_search_text(song uuid, title text, album text) returns text
    language sql stable as $$
      select lower(title || chr(10) || coalesce(album, '') || chr(10) || coalesce((
        select string_agg(a.name, chr(10) order by a.name, a.id)
        from song_artists sa join artists a on a.id = sa.artist_id
        where sa.song_id = song
      ), ''))
    $$`.execute(db);
  await sql`
    create function songs_search_text() returns trigger language plpgsql as $$
    begin
      new.search_text := song_search_text(new.id, new.title, new.album);
      return new;
    end $$`.execute(db);
  await sql`create trigger songs_search_text before insert or update of title, album on songs
    for each row execute function songs_search_text()`.execute(db);

  // Links added or removed: the songs concerned. Artists renamed: their songs.
  await sql`
    create function song_artists_search_text() returns trigger language plpgsql as $$
    begin
      -- Set-based (one join for every song the statement touched), so bulk links stay cheap.
      update songs s set search_text = lower(s.title || chr(10) || coalesce(s.album, '') || chr(10) || coalesce(n.names, ''))
      from (
        select c.song_id, string_agg(a.name, chr(10) order by a.name, a.id) as names
        from (select distinct song_id from changed_rows) c
        left join song_artists sa on sa.song_id = c.song_id
        left join artists a on a.id = sa.artist_id
        group by c.song_id
      ) n
      where s.id = n.song_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger song_artists_search_insert after insert on song_artists
    referencing new table as changed_rows for each statement execute function song_artists_search_text()`.execute(
    db,
  );
  await sql`create trigger song_artists_search_delete after delete on song_artists
    referencing old table as changed_rows for each statement execute function song_artists_search_text()`.execute(
    db,
  );
  await sql`
    create function artists_search_text() returns trigger language plpgsql as $$
    begin
      update songs s set search_text = song_search_text(s.id, s.title, s.album)
      where s.id in (
        select sa.song_id from song_artists sa
        join new_rows n on n.id = sa.artist_id
        join old_rows o on o.id = n.id
        where o.name is distinct from n.name
      );
      return null;
    end $$`.execute(db);
  await sql`create trigger artists_search_update after update on artists
    referencing old table as old_rows new table as new_rows for each statement
    execute function artists_search_text()`.execute(db);

  await sql`update songs set search_text = song_search_text(id, title, album)`.execute(db);
  await sql`create index songs_search_text_trgm_idx on songs using gin (search_text gin_trgm_ops)`.execute(
    db,
  );
  // Superseded by the index above.
  await sql`drop index songs_title_trgm_idx`.execute(db);
  await sql`drop index songs_album_trgm_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index songs_title_trgm_idx on songs using gin (title gin_trgm_ops)`.execute(db);
  await sql`create index songs_album_trgm_idx on songs using gin (album gin_trgm_ops)`.execute(db);
  await sql`drop trigger artists_search_update on artists`.execute(db);
  await sql`drop trigger song_artists_search_insert on song_artists`.execute(db);
  await sql`drop trigger song_artists_search_delete on song_artists`.execute(db);
  await sql`drop trigger songs_search_text on songs`.execute(db);
  await sql`drop function artists_search_text()`.execute(db);
  await sql`drop function song_artists_search_text()`.execute(db);
  await sql`drop function songs_search_text()`.execute(db);
  await sql`drop function song_search_text(uuid, text, text)`.execute(db);
  await sql`alter table songs drop column search_text`.execute(db);
}
