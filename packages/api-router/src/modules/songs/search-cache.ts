import { type Db, type SongFilters, type SongPageArgs, songs } from '@music/db';
import { NO_OBSERVER, type Observer } from '../../observer';

/** How many distinct searches (query, filters, order and page) one cache keeps. */
const SEARCH_CACHE_SIZE = 1_000;

interface Entry {
  version: string;
  ids: string[];
  total: number;
}

/**
 * Search results of one database handle, by query, valid while the catalogue version they were
 * computed at is current. Searching is the catalogue's most expensive read (an exact total
 * over every match) and the catalogue changes far less often than it is searched: a repeated
 * search costs one primary-key read of the version instead.
 *
 * Exact, on every instance: a result is used only when the version read now is the one it was
 * computed at (read in the same snapshot as the result itself), and every committed catalogue
 * change moves the version on (the catalogue-version migration's triggers). So instances share
 * nothing but the database, and a write through any of them is seen by the next search on all.
 *
 * Owned by the API's dependencies (`createDeps` makes it over `Deps.db`): the least
 * recently used search is dropped beyond `size` entries.
 */
export class SongSearchCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly db: Db,
    private readonly observer: Observer = NO_OBSERVER,
    private readonly size = SEARCH_CACHE_SIZE,
  ) {}

  /**
   * `db` is where this request reads (a read replica, or the primary): an entry is valid for
   * whichever server shows the catalogue at the version it was computed at.
   */
  async search(
    args: SongFilters & SongPageArgs & { search: string },
    db: Db = this.db,
  ): Promise<{ ids: string[]; total: number }> {
    const key = JSON.stringify([
      args.search,
      args.genre ?? null,
      args.artistId ?? null,
      args.ids ?? null,
      args.isrc ?? null,
      args.externalId ?? null,
      // The order decides which ids are on the page: `-title` and `title` are two searches.
      (args.sort ?? []).map((key) => `${key.descending ? '-' : ''}${key.column}`).join(','),
      args.limit,
      args.offset,
    ]);
    const version = await songs.readCatalogueVersion(db);
    const cached = this.#entries.get(key);
    // Most recently used last: the first key is the one to drop.
    this.#entries.delete(key);
    const hit = cached?.version === version;
    this.observer.searchCache(hit);
    const entry = hit ? cached : await songs.searchSongIds(db, args);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.size) this.#entries.delete(this.#entries.keys().next().value as string);
    return { ids: entry.ids, total: entry.total };
  }

  /** How many searches it holds (for tests). */
  get entries(): number {
    return this.#entries.size;
  }
}
