import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

/** A function and an index the previous release never reads: instances of it keep working. */
export const additive = true;

/**
 * What finds songs holding a run of two characters ("xu" in "Zoë Xu", "東京", "vu" in "déjà vu",
 * "acdc" is four): a trigram index has nothing to look up for a pair, so a search holding one was
 * checked row by row, over every song the term's other words matched (40,000 for "alley") or,
 * alone, over the table until enough were found.
 *
 * `search_pairs(text)`: the two-character pieces of a search text, none spanning a space (the
 * fields of `songs.search_text` are separated by spaces, and a match never spans two); repeats are
 * left in, the index keeps each key once. `songs_search_pairs_idx`: a GIN index of them, so "vu" is
 * one lookup, intersected with the other words' trigram lookups. About half the size of the
 * trigram index (31 distinct pairs a song on average). Written with every song's search text:
 * about 17 µs a song to compute at a million songs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function search_pairs(t text) returns text[] language sql immutable strict parallel safe as $$
      select array(select p from (select substr(t, i, 2) as p from generate_series(1, length(t) - 1) as i) pieces
        where strpos(p, ' ') = 0)
    $$`.execute(db);
  await sql`create index songs_search_pairs_idx on songs using gin (search_pairs(search_text))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index songs_search_pairs_idx`.execute(db);
  await sql`drop function search_pairs(text)`.execute(db);
}
