import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/**
 * Not additive: the previous release reads `songs.search_text` as lower-cased text, and this
 * migration rewrites it as folded text (its searches would still run, but miss some matches).
 */

/**
 * Characters that separate words: white space, ASCII punctuation and symbols, Latin-1 punctuation,
 * general punctuation (dashes, quotes, zero-width characters), arrows and other symbols, CJK
 * punctuation, variation selectors and emoji. Listed rather than read from the locale (`[:alnum:]`
 * depends on the database's collation, and would drop every non-ASCII letter under "C"), so the
 * embedded database and every server fold alike.
 */
const SEPARATORS =
  '[\\s\\u0021-\\u002f\\u003a-\\u0040\\u005b-\\u0060\\u007b-\\u007e\\u00a0-\\u00bf\\u00d7\\u00f7' +
  '\\u2000-\\u206f\\u20d0-\\u20ff\\u2100-\\u214f\\u2190-\\u2bff\\u3000-\\u303f\\ufe00-\\ufe0f' +
  '\\ufe10-\\ufe6f\\U0001f000-\\U0001faff]+';

/**
 * Folded search text. `search_fold(text)` is what search compares: Unicode compatibility forms
 * (NFKC: full-width letters, ligatures, superscripts), accents and letter variants removed
 * (`unaccent`: é→e, ł→l, ø→o, æ→ae, œ→oe, ß→ss), lower case, and every run of separators one
 * space: "Spider‐Man (Live)" is "spider man live". `search_compact(text)` drops the spaces too.
 * A term matches text when each of its folded words is a substring of the text's compact form,
 * so "ac dc", "acdc" and "AC/DC" find each other, words match in any order, and whatever a plain
 * case-insensitive substring found is still found.
 *
 * `search_fold` is declared immutable so generated columns and indexes can use it: it calls
 * `unaccent` with its dictionary named in full (the schema the extension is in), so its result
 * does not depend on the caller's search_path.
 *
 * Stored: `songs.title_key` and `songs.album_key` (written by the songs' search trigger, with the
 * search texts), `artists.name_key` and `playlists.name_key` (generated columns): folded, for
 * exact and prefix matches through b-tree indexes and for ranking. `songs.search_text` becomes the
 * compact forms of the title, the album and each artist's name, separated by single spaces (so a
 * match never spans two of them), under its trigram index; `songs.search_words` holds the same
 * folded words with their spaces, under a trigram index of its own for typo-tolerant matching.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  await sql`create extension if not exists fuzzystrmatch`.execute(db);
  const schema = await extensionSchema(db, 'unaccent');
  const unaccent = sql.raw(
    `${quoteIdent(schema)}.unaccent(${quoteLiteral(`${quoteIdent(schema)}.unaccent`)}::regdictionary`,
  );
  await sql`
    create function search_fold(t text) returns text language sql immutable strict parallel safe as $$
      select btrim(regexp_replace(lower(${unaccent}, normalize(t, NFKC))), ${sql.lit(SEPARATORS)}, ' ', 'g'))
    $$`.execute(db);
  await sql`
    create function search_compact(t text) returns text language sql immutable strict parallel safe as $$
      select regexp_replace(lower(${unaccent}, normalize(t, NFKC))), ${sql.lit(SEPARATORS)}, '', 'g')
    $$`.execute(db);

  await sql`alter table songs add column title_key text collate "C", add column album_key text collate "C",
    add column search_words text collate "C"`.execute(db);
  await sql`alter table artists add column name_key text collate "C" generated always as (search_fold(name)) stored`.execute(
    db,
  );
  await sql`alter table playlists add column name_key text collate "C" generated always as (search_fold(name)) stored`.execute(
    db,
  );

  // The compact search text from folded keys: title, album, then each artist (newline-separated).
  await sql`
    create function song_compact_text(title_key text, album_key text, names text) returns text
    language sql immutable parallel safe as $$
      select replace(title_key, ' ', '') || ' ' || coalesce(replace(album_key, ' ', ''), '') || ' '
        || coalesce(replace(replace(names, ' ', ''), chr(10), ' '), '')
    $$`.execute(db);
  await sql`
    create or replace function songs_search_text() returns trigger language plpgsql as $$
    declare
      names text := (
        select string_agg(a.name_key, chr(10) order by a.name, a.id)
        from song_artists sa join artists a on a.id = sa.artist_id
        where sa.song_id = new.id);
    begin
      new.title_key := search_fold(new.title);
      new.album_key := search_fold(new.album);
      new.search_text := song_compact_text(new.title_key, new.album_key, names);
      new.search_words := concat_ws(' ', new.title_key, new.album_key, replace(names, chr(10), ' '));
      return new;
    end $$`.execute(db);
  await sql`
    create or replace function song_artists_search_text() returns trigger language plpgsql as $$
    begin
      -- Set-based (one join for every song the statement touched), so bulk links stay cheap.
      update songs s set search_text = song_compact_text(s.title_key, s.album_key, n.names),
        search_words = concat_ws(' ', s.title_key, s.album_key, replace(n.names, chr(10), ' '))
      from (
        select c.song_id, string_agg(a.name_key, chr(10) order by a.name, a.id) as names
        from (select distinct song_id from changed_rows) c
        left join song_artists sa on sa.song_id = c.song_id
        left join artists a on a.id = sa.artist_id
        group by c.song_id
      ) n
      where s.id = n.song_id;
      return null;
    end $$`.execute(db);
  // An artist renamed: their songs' texts again, through the songs' trigger (as for every song below).
  await sql`
    create or replace function artists_search_text() returns trigger language plpgsql as $$
    begin
      update songs s set title = s.title
      where s.id in (
        select sa.song_id from song_artists sa
        join new_rows n on n.id = sa.artist_id
        join old_rows o on o.id = n.id
        where o.name is distinct from n.name
      );
      return null;
    end $$`.execute(db);
  // Through the trigger: every song's keys and search text, folded.
  await sql`update songs set title = title`.execute(db);
  // The catalogue-version triggers are deferred to the commit: their events for the rows just
  // rewritten would otherwise stop the table changes below ("pending trigger events") on any
  // database that holds songs. (Added after this migration landed: it could only have run on an
  // empty catalogue, where it does the same with or without this.)
  await sql`set constraints all immediate`.execute(db);
  await sql`alter table songs alter column title_key set not null, alter column search_words set not null`.execute(
    db,
  );

  // Exact and prefix matches (and their order) from b-trees; substrings from trigrams.
  // The keys are compared byte by byte (collation "C"), so one b-tree serves equality, prefixes
  // (LIKE 'term%') and the order of a prefix's matches.
  await sql`create index songs_title_key_idx on songs (title_key)`.execute(db);
  await sql`create index songs_album_key_idx on songs (album_key) where album_key <> ''`.execute(db);
  await sql`create index artists_name_key_idx on artists (name_key)`.execute(db);
  await sql`create index playlists_name_key_idx on playlists (name_key)`.execute(db);
  await sql`create index artists_name_compact_trgm_idx on artists
    using gin (replace(name_key, ' ', '') gin_trgm_ops)`.execute(db);
  await sql`create index playlists_name_compact_trgm_idx on playlists
    using gin (replace(name_key, ' ', '') gin_trgm_ops)`.execute(db);
  // Typos: candidates by trigram similarity to a word, on the folded words (not the compact text,
  // where a word inside another loses the trigrams of its edges).
  await sql`create index songs_search_words_trgm_idx on songs using gin (search_words gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index artists_name_key_trgm_idx on artists using gin (name_key gin_trgm_ops)`.execute(db);
  await sql`create index playlists_name_key_trgm_idx on playlists using gin (name_key gin_trgm_ops)`.execute(
    db,
  );
  // Superseded by the compact index above.
  await sql`drop index artists_name_trgm_idx`.execute(db);

  /**
   * Whether folded text `k` matches the folded query words with typos: each word equals a word
   * of `k`, starts one (the last word only: it may still be being typed), or is within its
   * allowance of edits of one (one edit for 5 to 8 letters, two from 9; none below 5).
   */
  const lev = sql.raw(`${quoteIdent(await extensionSchema(db, 'fuzzystrmatch'))}.levenshtein_less_equal`);
  await sql`
    create function search_typo_match(k text, words text[]) returns boolean
    language sql immutable strict parallel safe as $$
      select coalesce(bool_and(exists (
        select 1 from unnest(string_to_array(k, ' ')) t
        where t = w
          or (i = cardinality(words) and starts_with(t, w))
          or (length(w) >= 5 and ${lev}(w, t, case when length(w) >= 9 then 2 else 1 end)
                <= case when length(w) >= 9 then 2 else 1 end)
          or (i = cardinality(words) and length(w) >= 5 and length(t) > length(w)
              and ${lev}(w, left(t, length(w)), case when length(w) >= 9 then 2 else 1 end)
                <= case when length(w) >= 9 then 2 else 1 end)
      )), false)
      from unnest(words) with ordinality as q(w, i)
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function search_typo_match(text, text[])`.execute(db);
  await sql`create index artists_name_trgm_idx on artists using gin (name gin_trgm_ops)`.execute(db);
  await sql`drop index playlists_name_compact_trgm_idx`.execute(db);
  await sql`drop index playlists_name_key_idx`.execute(db);
  await sql`drop index playlists_name_key_trgm_idx`.execute(db);
  await sql`drop index artists_name_key_trgm_idx`.execute(db);
  await sql`drop index songs_search_words_trgm_idx`.execute(db);
  await sql`drop index artists_name_compact_trgm_idx`.execute(db);
  await sql`alter table playlists drop column name_key`.execute(db);
  await sql`alter table artists drop column name_key`.execute(db);
  await sql`alter table songs drop column title_key, drop column album_key, drop column search_words`.execute(
    db,
  );
  await sql`
    create or replace function artists_search_text() returns trigger language plpgsql as $$
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
  await sql`
    create or replace function songs_search_text() returns trigger language plpgsql as $$
    begin
      new.search_text := song_search_text(new.id, new.title, new.album);
      return new;
    end $$`.execute(db);
  await sql`
    create or replace function song_artists_search_text() returns trigger language plpgsql as $$
    begin
      update songs s set search_text = song_search_text(s.id, s.title, s.album)
      where s.id in (select distinct song_id from changed_rows);
      return null;
    end $$`.execute(db);
  await sql`update songs set search_text = song_search_text(id, title, album)`.execute(db);
  await sql`drop function song_compact_text(text, text, text)`.execute(db);
  await sql`drop function search_compact(text)`.execute(db);
  await sql`drop function search_fold(text)`.execute(db);
}

/** The schema an extension was created in. */
async function extensionSchema(db: Kysely<any>, extension: string): Promise<string> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = ${extension}`.execute(db);
  return rows[0]!.schema;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
