import { sql } from 'kysely';
import type { Db } from '../schema';
import { foldOptional, matchesTerm, type SearchTerm } from './search-terms';

/** One genre in use: its name and how many songs have it. */
export interface GenreRow {
  name: string;
  song_count: number;
}

/**
 * The songs' genres as a list: the distinct genres in use (null and empty ones are none), with
 * how many songs have each. Genres are told apart case-insensitively, as the songs list's
 * `genre` filter matches them (so a genre's count is the total that filter answers): "Rock" and
 * "rock" are one genre, named by its most common spelling (ties: the first in order), and the
 * list is ordered by name regardless of case (lower-cased names are unique, so the order is
 * total). `search`: the folded words of the term, each in the folded name (`search-terms.ts`),
 * checked once per distinct spelling after grouping, not once per song.
 */
export async function listGenres(
  db: Db,
  args: { search?: string | undefined; limit: number; offset: number },
): Promise<{ rows: GenreRow[]; total: number }> {
  const matching = matchingGenres(await foldOptional(db, args.search));
  const [page, count] = await Promise.all([
    sql<GenreRow>`
      ${genresWith(matching)}
      select name, song_count from genres
      order by lower(name), name limit ${args.limit} offset ${args.offset}
    `.execute(db),
    sql<{ total: number }>`
      select count(distinct lower(genre))::int as total
      from (select genre from songs where genre is not null and genre <> '' group by genre) spellings
      where ${matching}
    `.execute(db),
  ]);
  return { rows: page.rows, total: count.rows[0]?.total ?? 0 };
}

/** Whether a spelling (`genre`) matches the term (always, without one). */
function matchingGenres(term: SearchTerm | undefined) {
  return term ? matchesTerm(sql`search_compact(genre)`, term, [sql.ref('genre')]) : sql`true`;
}

/** The CTE `genres`: each genre once, by its most common spelling, with its song count. */
function genresWith(matching: ReturnType<typeof matchingGenres>) {
  return sql`
    with spellings as (
      select genre, n from (
        select genre, count(*)::int as n from songs where genre is not null and genre <> '' group by genre
      ) every_spelling where ${matching}
    ),
    genres as (
      select distinct on (lower(genre)) genre as name,
        (sum(n) over (partition by lower(genre)))::int as song_count
      from spellings
      order by lower(genre), n desc, genre
    )`;
}

/**
 * The genres after `after` (a lower-cased name; null: from the first) in name order, `limit` of
 * them, and the lower-cased name of the last when more follow (cursor mode: a genre's identity is
 * its lower-cased name, unique in the list).
 */
export async function listGenresAfter(
  db: Db,
  args: { search?: string | undefined; limit: number; after: string | null },
): Promise<{ rows: GenreRow[]; next: string | null }> {
  const after = args.after === null ? sql`true` : sql`lower(name) > ${args.after}`;
  // The position is PostgreSQL's lower(), not JavaScript's: they differ on a few letters.
  const { rows } = await sql<GenreRow & { key: string }>`
    ${genresWith(matchingGenres(await foldOptional(db, args.search)))}
    select name, song_count, lower(name) as key from genres where ${after}
    order by lower(name) limit ${args.limit + 1}
  `.execute(db);
  const kept = rows.slice(0, args.limit);
  return {
    rows: kept.map(({ name, song_count }) => ({ name, song_count })),
    next: rows.length > args.limit ? kept.at(-1)!.key : null,
  };
}
