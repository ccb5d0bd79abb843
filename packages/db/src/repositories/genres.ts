import { sql } from 'kysely';
import { likeContains } from '../like';
import type { Db } from '../schema';

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
 * total). `search`: a case-insensitive substring of the name.
 */
export async function listGenres(
  db: Db,
  args: { search?: string | undefined; limit: number; offset: number },
): Promise<{ rows: GenreRow[]; total: number }> {
  const matching = args.search
    ? sql`genre is not null and genre <> '' and genre ilike ${likeContains(args.search)}`
    : sql`genre is not null and genre <> ''`;
  const [page, count] = await Promise.all([
    sql<GenreRow>`
      with spellings as (
        select genre, count(*)::int as n from songs where ${matching} group by genre
      ),
      genres as (
        select distinct on (lower(genre)) genre as name,
          (sum(n) over (partition by lower(genre)))::int as song_count
        from spellings
        order by lower(genre), n desc, genre
      )
      select name, song_count from genres
      order by lower(name), name limit ${args.limit} offset ${args.offset}
    `.execute(db),
    sql<{ total: number }>`
      select count(distinct lower(genre))::int as total from songs where ${matching}
    `.execute(db),
  ]);
  return { rows: page.rows, total: count.rows[0]?.total ?? 0 };
}
