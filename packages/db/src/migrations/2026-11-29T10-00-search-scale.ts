import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/**
 * What lets the finder (`GET /search`) answer from b-trees and a small table at a million songs:
 *
 * - `search_vocabulary`: every folded word of the catalogue's names (song titles, albums, artist
 *   and playlist names), once. A word with a typo is corrected against it (trigram similarity,
 *   then edit distance), which reads tens of thousands of words instead of a million texts.
 *   Written by statement-level triggers (one `insert … on conflict do nothing` per statement,
 *   whatever its size); never pruned: a word no name holds any more corrects a typo into a
 *   search that finds nothing, which is what searching it would find anyway.
 * - `search_starts`: where a word inside a name starts, and the rest of the name from there
 *   ("endless love" for "Sigur Rós endless love"…: every word but the first, whose start is the
 *   name's own key, already in a b-tree), for song titles (`t`), albums (`l`), artist names (`a`)
 *   and playlist names (`p`), cut at 64 characters. One b-tree then finds the names with a word
 *   starting with what was typed, a few at a time, however many there are; a trigram index can only
 *   list them all. Kept by statement-level triggers; a deleted row's starts go with it.
 * - `songs.album_artist_id`: the song's first artist (lowest link position), kept by the link
 *   trigger. An album is a folded album name and a first artist, so `(album_key,
 *   album_artist_id)` indexed gives an album's songs directly (they were found by reading every
 *   song of that album name, and each one's first artist).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table search_vocabulary (word text collate "C" primary key)`.execute(db);
  await sql`create index search_vocabulary_word_trgm_idx on search_vocabulary using gin (word gin_trgm_ops)`.execute(
    db,
  );
  const words = (column: string) =>
    sql.raw(`select distinct w from new_rows, unnest(string_to_array(${column}, ' ')) w where w <> ''`);
  await sql`
    create function songs_vocabulary() returns trigger language plpgsql as $$
    begin
      insert into search_vocabulary (word) ${words('new_rows.search_words')} on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`
    create function names_vocabulary() returns trigger language plpgsql as $$
    begin
      insert into search_vocabulary (word) ${words('new_rows.name_key')} on conflict do nothing;
      return null;
    end $$`.execute(db);
  for (const [table, fn] of [
    ['songs', 'songs_vocabulary'],
    ['artists', 'names_vocabulary'],
    ['playlists', 'names_vocabulary'],
  ] as const) {
    for (const event of ['insert', 'update'] as const) {
      await sql`create trigger ${sql.ref(`${table}_vocabulary_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
        referencing new table as new_rows for each statement execute function ${sql.raw(fn)}()`.execute(db);
    }
  }
  await sql`insert into search_vocabulary (word)
    select w from songs, unnest(string_to_array(search_words, ' ')) w where w <> ''
    union select w from artists, unnest(string_to_array(name_key, ' ')) w where w <> ''
    union select w from playlists, unnest(string_to_array(name_key, ' ')) w where w <> ''
    on conflict do nothing`.execute(db);

  await sql`create table search_starts (
    kind "char" not null,
    start text collate "C" not null,
    id uuid not null,
    primary key (kind, start, id)
  )`.execute(db);
  await sql`
    create function search_starts_of(key text) returns setof text
    language sql immutable strict parallel safe as $$
      select distinct left(array_to_string(w[i:], ' '), 64)
      from (select string_to_array(key, ' ') as w) s, generate_subscripts(s.w, 1) i
      where i > 1
    $$`.execute(db);
  // Songs: titles (t) and albums (l); artists (a) and playlists (p): their folded names. One
  // function per operation, since each sees only its own transition tables; an update touches
  // only rows whose keys changed (most do not: the link trigger rewriting search texts).
  const starts = (rows: string, changed: string) => {
    const from = (key: string) =>
      sql.raw(`${rows} r${changed ? ` join ${changed} c on c.id = r.id` : ''}, search_starts_of(r.${key}) x
        where ${changed ? `r.${key} is distinct from c.${key}` : 'true'}`);
    return {
      songs: sql`select 't'::"char" as kind, x as start, r.id from ${from('title_key')}
        union all select 'l'::"char", x, r.id from ${from('album_key')}`,
      names: sql`select tg_argv[0]::"char" as kind, x as start, r.id from ${from('name_key')}`,
    };
  };
  for (const [kind, fn] of [
    ['songs', 'songs_starts'],
    ['names', 'names_starts'],
  ] as const) {
    await sql`create function ${sql.raw(`${fn}_insert`)}() returns trigger language plpgsql as $$
      begin
        insert into search_starts (kind, start, id) ${starts('new_rows', '')[kind]} on conflict do nothing;
        return null;
      end $$`.execute(db);
    await sql`create function ${sql.raw(`${fn}_delete`)}() returns trigger language plpgsql as $$
      begin
        delete from search_starts s using (${starts('old_rows', '')[kind]}) d
        where s.kind = d.kind and s.start = d.start and s.id = d.id;
        return null;
      end $$`.execute(db);
    await sql`create function ${sql.raw(`${fn}_update`)}() returns trigger language plpgsql as $$
      begin
        delete from search_starts s using (${starts('old_rows', 'new_rows')[kind]}) d
        where s.kind = d.kind and s.start = d.start and s.id = d.id;
        insert into search_starts (kind, start, id) ${starts('new_rows', 'old_rows')[kind]} on conflict do nothing;
        return null;
      end $$`.execute(db);
  }
  for (const [table, fn, argument] of [
    ['songs', 'songs_starts', ''],
    ['artists', 'names_starts', "'a'"],
    ['playlists', 'names_starts', "'p'"],
  ] as const) {
    const name = (event: string) => sql.ref(`${table}_starts_${event}`);
    const run = (event: string) => sql.raw(`for each statement execute function ${fn}_${event}(${argument})`);
    await sql`create trigger ${name('insert')} after insert on ${sql.table(table)}
      referencing new table as new_rows ${run('insert')}`.execute(db);
    await sql`create trigger ${name('update')} after update on ${sql.table(table)}
      referencing old table as old_rows new table as new_rows ${run('update')}`.execute(db);
    await sql`create trigger ${name('delete')} after delete on ${sql.table(table)}
      referencing old table as old_rows ${run('delete')}`.execute(db);
  }
  await sql`insert into search_starts (kind, start, id)
    select 't', x, id from songs, search_starts_of(title_key) x
    union all select 'l', x, id from songs, search_starts_of(album_key) x
    union all select 'a', x, id from artists, search_starts_of(name_key) x
    union all select 'p', x, id from playlists, search_starts_of(name_key) x
    on conflict do nothing`.execute(db);

  await sql`alter table songs add column album_artist_id uuid`.execute(db);
  await linkTrigger(db, true);
  await sql`update songs s set album_artist_id = f.artist_id
    from (select distinct on (song_id) song_id, artist_id from song_artists order by song_id, position, artist_id) f
    where s.id = f.song_id`.execute(db);
  // The catalogue-version triggers (deferred to the commit) fire now for the rows just written:
  // pending, they would stop the index change below.
  await sql`set constraints all immediate`.execute(db);
  await sql`drop index songs_album_key_idx`.execute(db);
  await sql`create index songs_album_key_idx on songs (album_key, album_artist_id) where album_key <> ''`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index songs_album_key_idx`.execute(db);
  await sql`create index songs_album_key_idx on songs (album_key) where album_key <> ''`.execute(db);
  await linkTrigger(db, false);
  await sql`alter table songs drop column album_artist_id`.execute(db);
  for (const table of ['songs', 'artists', 'playlists']) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger ${sql.ref(`${table}_starts_${event}`)} on ${sql.table(table)}`.execute(db);
    }
  }
  for (const fn of ['songs_starts', 'names_starts']) {
    for (const event of ['insert', 'update', 'delete'])
      await sql`drop function ${sql.raw(`${fn}_${event}`)}()`.execute(db);
  }
  await sql`drop function search_starts_of(text)`.execute(db);
  await sql`drop table search_starts`.execute(db);
  for (const table of ['songs', 'artists', 'playlists']) {
    for (const event of ['insert', 'update']) {
      await sql`drop trigger ${sql.ref(`${table}_vocabulary_${event}`)} on ${sql.table(table)}`.execute(db);
    }
  }
  await sql`drop function names_vocabulary()`.execute(db);
  await sql`drop function songs_vocabulary()`.execute(db);
  await sql`drop table search_vocabulary`.execute(db);
}

/**
 * The links' trigger: every song a statement linked or unlinked gets its search texts again (set
 * based: one join for all of them, so bulk links stay cheap) and, with `first`, its first artist.
 * Without it, the function as the search-folding migration left it.
 */
async function linkTrigger(db: Kysely<any>, first: boolean): Promise<void> {
  await sql`
    create or replace function song_artists_search_text() returns trigger language plpgsql as $$
    begin
      update songs s set search_text = song_compact_text(s.title_key, s.album_key, n.names),
        search_words = concat_ws(' ', s.title_key, s.album_key, replace(n.names, chr(10), ' '))
        ${sql.raw(first ? ', album_artist_id = n.first' : '')}
      from (
        select c.song_id, string_agg(a.name_key, chr(10) order by a.name, a.id) as names
          ${sql.raw(first ? ', (array_agg(sa.artist_id order by sa.position, sa.artist_id))[1] as first' : '')}
        from (select distinct song_id from changed_rows) c
        left join song_artists sa on sa.song_id = c.song_id
        left join artists a on a.id = sa.artist_id
        group by c.song_id
      ) n
      where s.id = n.song_id;
      return null;
    end $$`.execute(db);
}
