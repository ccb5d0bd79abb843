import { sql } from 'kysely';
import type { ArtistRow, ArtistsTable, Db } from '../schema';
import { type Keyset, keysetPage, keysetSelections, type OrderKey, orderTerms, pageAfter } from './order';
import { countRows } from './row-counts';
import { foldOptional, matchesTerm, relevanceTier, type SearchTerm } from './search-terms';

/** Named, not `*`: see USER_COLUMNS. */
const ARTIST_COLUMNS = [
  'artists.id',
  'artists.name',
  'artists.bio',
  'artists.user_id',
  'artists.created_at',
  'artists.updated_at',
] as const;

export type NewArtist = Omit<ArtistRow, 'created_at' | 'updated_at'>;
export type ArtistUpdate = Partial<Pick<ArtistsTable, 'name' | 'bio' | 'user_id'>>;

/** The columns a list of artists can be ordered by (the API's `sort` fields). */
export type ArtistSortColumn = 'name' | 'created_at' | 'rank' | 'popularity';

/** `sort=relevance` (with a search): the name's tier, then the most popular, then by name (then id). */
export const ARTISTS_BY_RELEVANCE: readonly OrderKey<ArtistSortColumn>[] = [
  { column: 'rank', descending: false },
  { column: 'popularity', descending: true },
  { column: 'name', descending: false },
];

const BY_NAME: readonly OrderKey<ArtistSortColumn>[] = [{ column: 'name', descending: false }];

export async function insertArtist(db: Db, artist: NewArtist): Promise<ArtistRow> {
  return db.insertInto('artists').values(artist).returning(ARTIST_COLUMNS).executeTakeFirstOrThrow();
}

export async function findArtistById(db: Db, id: string): Promise<ArtistRow | undefined> {
  return db.selectFrom('artists').select(ARTIST_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/**
 * The artist, its row locked until the transaction ends: a write reads what it changes (and
 * checks `If-Match` against it) with no other write in between. `for no key update`, the lock
 * an update takes anyway: it still lets other transactions link songs to the artist (their
 * foreign key check takes a key-share lock), so a delete that locks the artist and then its
 * songs cannot deadlock with a link that locked the song first.
 */
export async function lockArtist(db: Db, id: string): Promise<ArtistRow | undefined> {
  return db
    .selectFrom('artists')
    .select(ARTIST_COLUMNS)
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

export async function hasAnyArtist(db: Db): Promise<boolean> {
  return (await db.selectFrom('artists').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** The artists named by `ids` (unknown ones left out), in no particular order. */
export async function findArtistsByIds(db: Db, ids: readonly string[]): Promise<ArtistRow[]> {
  if (ids.length === 0) return [];
  return artistRows(db)
    .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
    .execute();
}

/** Artists as `findArtistsByIds` reads them, for a query to narrow. */
export const artistRows = (db: Db) => db.selectFrom('artists').select(ARTIST_COLUMNS);

/** The ids among `ids` that name an artist. */
export async function findExistingArtistIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('artists')
    .select('id')
    .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The artists an account manages, oldest first. */
export async function findArtistIdsByUserId(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('artists')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * `search`: the folded words of the term each in the folded name (trigram index on the compact
 * name, `search-terms.ts`); `ids`: only these artists
 * (one `= any(array)` on the primary key, however many). Filters combine. Ordered by `sort` (by
 * name when it is empty or omitted), then id.
 */
export interface ArtistFilters {
  search?: string | undefined;
  userId?: string | undefined;
  ids?: readonly string[] | undefined;
  sort?: readonly OrderKey<ArtistSortColumn>[] | undefined;
}

function filteredArtists(db: Db, args: ArtistFilters, term: SearchTerm | undefined) {
  let query = db.selectFrom('artists');
  if (term) {
    query = query.where(
      matchesTerm(sql`replace(artists.name_key, ' ', '')`, term, [sql.ref('artists.name')]),
    );
  }
  if (args.userId) query = query.where('user_id', '=', args.userId);
  // One array parameter, as findExistingArtistIds: the statement stays the same for any count.
  if (args.ids) query = query.where('id', '=', sql<string>`any(${[...args.ids]}::uuid[])`);
  return query;
}

/** How many playlist entries hold the artist's songs (the artist's songs' popularity, summed). */
const artistPopularity = sql<number>`(select count(*)::int from song_artists sa
  join playlist_songs ps on ps.song_id = sa.song_id where sa.artist_id = artists.id)`;

/**
 * The filtered artists; ranked by relevance (`sort` holds `rank`): the matches with their tier
 * and popularity as columns, under the table's name, so the order and a keyset read them as any
 * other column.
 */
function rankedArtists(db: Db, args: ArtistFilters, term: SearchTerm | undefined) {
  const filtered = filteredArtists(db, args, term);
  if (!term || !args.sort?.some((key) => key.column === 'rank')) return filtered;
  const ranked = filtered.select([
    ...ARTIST_COLUMNS,
    relevanceTier(sql.ref('artists.name_key'), term).as('rank'),
    artistPopularity.as('popularity'),
  ]);
  // The same columns under the same name, and two more: typed as the table it stands for.
  return db.selectFrom(ranked.as('artists')) as unknown as typeof filtered;
}

export async function listArtists(
  db: Db,
  args: ArtistFilters & { limit: number; offset: number },
): Promise<{ rows: ArtistRow[]; total: number }> {
  const term = await foldOptional(db, args.search);
  const query = filteredArtists(db, args, term);
  let page = rankedArtists(db, args, term).select(ARTIST_COLUMNS);
  for (const [ref, direction] of orderTerms('artists', args.sort, BY_NAME))
    page = page.orderBy(ref, direction);
  const [rows, total] = await Promise.all([
    page.limit(args.limit).offset(args.offset).execute(),
    args.search || args.userId || args.ids
      ? query
          .select(sql<number>`count(*)::int`.as('total'))
          .executeTakeFirstOrThrow()
          .then((r) => r.total)
      : countRows(db, 'artists'),
  ]);
  return { rows, total };
}

/** The artists after a position in the list's order (cursor mode), and the position after them. */
export async function listArtistsAfter(
  db: Db,
  args: ArtistFilters & { limit: number; after: Keyset | null },
): Promise<{ rows: ArtistRow[]; next: Keyset | null }> {
  const rows = await rankedArtists(db, args, await foldOptional(db, args.search))
    .select(ARTIST_COLUMNS)
    .select(keysetSelections('artists', args.sort, BY_NAME))
    .$call(pageAfter('artists', args.sort, BY_NAME, args))
    .execute();
  const { rows: kept, next } = keysetPage(rows, args.limit, args.sort?.length || BY_NAME.length);
  return {
    rows: kept.map(({ id, name, bio, user_id, created_at, updated_at }) => ({
      id,
      name,
      bio,
      user_id,
      created_at,
      updated_at,
    })),
    next,
  };
}

/** The artist's songs after a position in title order (cursor mode), and the position after them. */
export async function listArtistSongIdsAfter(
  db: Db,
  args: { artistId: string; limit: number; after: Keyset | null },
): Promise<{ ids: string[]; next: Keyset | null }> {
  const rows = await db
    .selectFrom('songs')
    .innerJoin('song_artists', 'song_artists.song_id', 'songs.id')
    .select('songs.id')
    .select(keysetSelections('songs', undefined, BY_TITLE))
    .where('song_artists.artist_id', '=', args.artistId)
    .$call(pageAfter('songs', undefined, BY_TITLE, args))
    .execute();
  const { rows: kept, next } = keysetPage(rows, args.limit, 1);
  return { ids: kept.map((row) => row.id), next };
}

const BY_TITLE: readonly OrderKey<'title'>[] = [{ column: 'title', descending: false }];

export async function updateArtist(db: Db, id: string, patch: ArtistUpdate): Promise<ArtistRow | undefined> {
  return db
    .updateTable('artists')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .returning(ARTIST_COLUMNS)
    .executeTakeFirst();
}

/** Deletes the artist; its song links go with it (cascade), the songs stay. */
export async function deleteArtist(db: Db, id: string): Promise<boolean> {
  // The songs' artistIds change: they count as modified.
  await db
    .updateTable('songs')
    .set({ updated_at: new Date() })
    .where('id', 'in', (eb) => eb.selectFrom('song_artists').select('song_id').where('artist_id', '=', id))
    .execute();
  const result = await db.deleteFrom('artists').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ids of the artist's songs, ordered by title, then id, with the count of all of them. */
export async function listArtistSongIds(
  db: Db,
  args: { artistId: string; limit: number; offset: number },
): Promise<{ ids: string[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('songs')
      .innerJoin('song_artists', 'song_artists.song_id', 'songs.id')
      .select('songs.id')
      .where('song_artists.artist_id', '=', args.artistId)
      .orderBy('songs.title')
      .orderBy('songs.id')
      .limit(args.limit)
      .offset(args.offset)
      .execute(),
    db
      .selectFrom('song_artists')
      .select(sql<number>`count(*)::int`.as('total'))
      .where('artist_id', '=', args.artistId)
      .executeTakeFirstOrThrow(),
  ]);
  return { ids: rows.map((r) => r.id), total: count.total };
}

/** The songs linked to `artistId` (the change feed names them when the artist is deleted). */
export async function findSongIdsOfArtist(db: Db, artistId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('song_artists')
    .select('song_id')
    .where('artist_id', '=', artistId)
    .execute();
  return rows.map((row) => row.song_id);
}
