import type { Db } from '../schema';
import { type Keyset, keysetPage, keysetSelections, type OrderKey, orderColumns, pageAfter } from './order';
import { foldTerm } from './search-terms';
import {
  BY_TITLE,
  filteredSongs,
  indexedPairs,
  type SongFilters,
  type SongSortColumn,
  songOrderSelections,
} from './song-filters';

/**
 * A page of song ids after a position (cursor mode), `limit` of them, and the position after the
 * last when more follow. A search collects its matches first, as `songSearchQuery` does, then
 * pages through them by keyset; no total is counted, and nothing is cached: each page is read
 * in its own snapshot, exact.
 */
export async function listSongIdsAfter(
  db: Db,
  args: SongFilters & {
    sort?: readonly OrderKey<SongSortColumn>[] | undefined;
    limit: number;
    after: Keyset | null;
  },
): Promise<{ ids: string[]; next: Keyset | null }> {
  const width = orderColumns(args.sort, BY_TITLE).length;
  const term = args.search ? await foldTerm(db, args.search) : undefined;
  const pairs = term ? await indexedPairs(db, term) : [];
  const rows = term
    ? await db
        .with(
          (wb) => wb('matches').materialized(),
          () =>
            filteredSongs(db, args, term, pairs)
              .select('songs.id')
              .select(songOrderSelections(orderColumns(args.sort, BY_TITLE), term)),
        )
        .selectFrom('matches')
        .select('matches.id')
        .select(keysetSelections('matches', args.sort, BY_TITLE))
        .$call(pageAfter('matches', args.sort, BY_TITLE, args))
        .execute()
    : await filteredSongs(db, args)
        .select('songs.id')
        .select(keysetSelections('songs', args.sort, BY_TITLE))
        .$call(pageAfter('songs', args.sort, BY_TITLE, args))
        .execute();
  const page = keysetPage(rows as { id: string }[], args.limit, width);
  return { ids: page.rows.map((row) => row.id), next: page.next };
}
