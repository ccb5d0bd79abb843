import type { Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Db, PlaylistRow, PlaylistsTable } from '../schema';
import { type Keyset, keysetPage, keysetSelections, type OrderKey, orderTerms, pageAfter } from './order';
import { countRows } from './row-counts';

/** Named, not `*`: see USER_COLUMNS. */
const PLAYLIST_COLUMNS = [
  'playlists.id',
  'playlists.user_id',
  'playlists.name',
  'playlists.description',
  'playlists.is_public',
  'playlists.created_at',
  'playlists.updated_at',
] as const;

export type NewPlaylist = Omit<PlaylistRow, 'created_at' | 'updated_at'>;
export type PlaylistUpdate = Pick<Updateable<PlaylistsTable>, 'name' | 'description' | 'is_public'>;

/** The columns a list of playlists can be ordered by (the API's `sort` fields). */
export type PlaylistSortColumn = 'name' | 'created_at';

/** The contract's order when no `sort` is given: oldest first (then id). */
const OLDEST_FIRST: readonly OrderKey<PlaylistSortColumn>[] = [{ column: 'created_at', descending: false }];

/** A playlist with its song ids in playlist order. */
export interface PlaylistWithSongs extends PlaylistRow {
  song_ids: string[];
}

/** The playlists named by `ids` with their song ids, in the order of `ids`; one query. */
export async function findPlaylistsWithSongs(db: Db, ids: readonly string[]): Promise<PlaylistWithSongs[]> {
  if (ids.length === 0) return [];
  const rows = await playlistsWithSongs(db)
    .where('playlists.id', '=', sql<string>`any(${[...ids]}::uuid[])`)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Playlists with their song ids (`findPlaylistsWithSongs`'s columns), for a query to narrow. */
export const playlistsWithSongs = (db: Db) =>
  db
    .selectFrom('playlists')
    .select(PLAYLIST_COLUMNS)
    .select(
      sql<string[]>`coalesce((
        select array_agg(ps.song_id order by ps.position)::text[]
        from playlist_songs ps where ps.playlist_id = playlists.id
      ), '{}')`.as('song_ids'),
    );

export async function findPlaylistById(db: Db, id: string): Promise<PlaylistWithSongs | undefined> {
  const [playlist] = await findPlaylistsWithSongs(db, [id]);
  return playlist;
}

/**
 * Locks the playlist row for the rest of the transaction (concurrent changes to its songs
 * queue behind it); undefined when it does not exist.
 */
export async function lockPlaylist(db: Db, id: string): Promise<PlaylistRow | undefined> {
  return db
    .selectFrom('playlists')
    .select(PLAYLIST_COLUMNS)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * One page of playlist ids, ordered by `sort` (oldest first when it is empty or omitted), then
 * id; all playlists, one user's, and/or only the public ones.
 */
export interface PlaylistFilters {
  userId?: string | undefined;
  publicOnly?: boolean;
  /** Only these playlists (one `= any(array)` on the primary key, however many). */
  ids?: readonly string[] | undefined;
  /** Only the playlists this user may read: their own and the public ones. */
  readableBy?: string | undefined;
  /** Only the playlists holding at least one song of this artist. */
  artistId?: string | undefined;
  sort?: readonly OrderKey<PlaylistSortColumn>[] | undefined;
}

function filteredPlaylists(db: Db, args: PlaylistFilters) {
  let query = db.selectFrom('playlists');
  if (args.userId) query = query.where('user_id', '=', args.userId);
  if (args.publicOnly) query = query.where('is_public', '=', true);
  if (args.ids) query = query.where('id', '=', sql<string>`any(${[...args.ids]}::uuid[])`);
  const reader = args.readableBy;
  if (reader) query = query.where((eb) => eb.or([eb('user_id', '=', reader), eb('is_public', '=', true)]));
  const { artistId } = args;
  if (artistId) {
    // Each playlist's songs by the artist, through the song_artists index on artist_id.
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('playlist_songs')
          .innerJoin('song_artists', 'song_artists.song_id', 'playlist_songs.song_id')
          .select(sql`1`.as('one'))
          .whereRef('playlist_songs.playlist_id', '=', 'playlists.id')
          .where('song_artists.artist_id', '=', artistId),
      ),
    );
  }
  return query;
}

export async function listPlaylistIds(
  db: Db,
  args: PlaylistFilters & { limit: number; offset: number },
): Promise<{ ids: string[]; total: number }> {
  const query = filteredPlaylists(db, args);
  let page = query.select('id');
  for (const [ref, direction] of orderTerms('playlists', args.sort, OLDEST_FIRST)) {
    page = page.orderBy(ref, direction);
  }
  const [rows, total] = await Promise.all([
    page.limit(args.limit).offset(args.offset).execute(),
    args.userId || args.publicOnly || args.ids || args.readableBy || args.artistId
      ? query
          .select(sql<number>`count(*)::int`.as('total'))
          .executeTakeFirstOrThrow()
          .then((r) => r.total)
      : countRows(db, 'playlists'),
  ]);
  return { ids: rows.map((r) => r.id), total };
}

/** The playlists after a position in the list's order (cursor mode), and the position after them. */
export async function listPlaylistIdsAfter(
  db: Db,
  args: PlaylistFilters & { limit: number; after: Keyset | null },
): Promise<{ ids: string[]; next: Keyset | null }> {
  const rows = await filteredPlaylists(db, args)
    .select('playlists.id')
    .select(keysetSelections('playlists', args.sort, OLDEST_FIRST))
    .$call(pageAfter('playlists', args.sort, OLDEST_FIRST, args))
    .execute();
  const { rows: kept, next } = keysetPage(rows, args.limit, args.sort?.length || OLDEST_FIRST.length);
  return { ids: kept.map((row) => row.id), next };
}

export async function insertPlaylist(db: Db, playlist: NewPlaylist): Promise<PlaylistRow> {
  return db.insertInto('playlists').values(playlist).returning(PLAYLIST_COLUMNS).executeTakeFirstOrThrow();
}

/**
 * Writes `patch` and stamps `updated_at`; an empty patch only stamps it (the songs changed).
 * Callers skip it when nothing changed, so a no-op write keeps `updatedAt` and the ETag.
 */
export async function updatePlaylist(
  db: Db,
  id: string,
  patch: PlaylistUpdate,
): Promise<PlaylistRow | undefined> {
  return db
    .updateTable('playlists')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .returning(PLAYLIST_COLUMNS)
    .executeTakeFirst();
}

/** Deletes the playlist; the songs stay. */
export async function deletePlaylist(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('playlists').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Replaces the playlist's songs with `songIds`, in that order. */
export async function setPlaylistSongs(
  db: Db,
  playlistId: string,
  songIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('playlist_songs').where('playlist_id', '=', playlistId).execute();
  if (songIds.length === 0) return;
  await db
    .insertInto('playlist_songs')
    .values(songIds.map((songId, position) => ({ playlist_id: playlistId, song_id: songId, position })))
    .execute();
}

/**
 * Appends the song after the playlist's last one. Callers lock the playlist first
 * (`lockPlaylist`), so `max(position) + 1` cannot be computed twice for one playlist; the
 * primary key still refuses a duplicate song (23505).
 */
export async function appendPlaylistSong(
  db: Db,
  args: { playlistId: string; songId: string },
): Promise<void> {
  await db
    .insertInto('playlist_songs')
    .columns(['playlist_id', 'song_id', 'position'])
    .expression((eb) =>
      eb
        .selectFrom('playlist_songs')
        .select([
          sql<string>`${args.playlistId}::uuid`.as('playlist_id'),
          sql<string>`${args.songId}::uuid`.as('song_id'),
          sql<number>`coalesce(max(position) + 1, 0)`.as('position'),
        ])
        .where('playlist_id', '=', args.playlistId),
    )
    .execute();
}

/** False when the song was not in the playlist. */
export async function removePlaylistSong(
  db: Db,
  args: { playlistId: string; songId: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('playlist_songs')
    .where('playlist_id', '=', args.playlistId)
    .where('song_id', '=', args.songId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ids of the playlist's songs in playlist order, with their count. */
export async function listPlaylistSongIds(
  db: Db,
  args: { playlistId: string; limit: number; offset: number },
): Promise<{ ids: string[]; total: number }> {
  const query = db.selectFrom('playlist_songs').where('playlist_id', '=', args.playlistId);
  const [rows, count] = await Promise.all([
    query.select('song_id').orderBy('position').limit(args.limit).offset(args.offset).execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { ids: rows.map((r) => r.song_id), total: count.total };
}

/** The playlist's songs after a position in playlist order (cursor mode), and the position after them. */
export async function listPlaylistSongIdsAfter(
  db: Db,
  args: { playlistId: string; limit: number; after: Keyset | null },
): Promise<{ ids: string[]; next: Keyset | null }> {
  const order: readonly OrderKey<'position'>[] = [{ column: 'position', descending: false }];
  const rows = await db
    .selectFrom('playlist_songs')
    .select('playlist_songs.song_id as id')
    .select(keysetSelections('playlist_songs', undefined, order))
    .where('playlist_id', '=', args.playlistId)
    .$call(pageAfter('playlist_songs', undefined, order, args, 'playlist_songs.song_id'))
    .execute();
  const { rows: kept, next } = keysetPage(rows, args.limit, 1);
  return { ids: kept.map((row) => row.id), next };
}

/** The playlists that hold `songId` (the change feed names them when the song is deleted). */
export async function findPlaylistIdsWithSong(db: Db, songId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('playlist_songs')
    .select('playlist_id')
    .distinct()
    .where('song_id', '=', songId)
    .execute();
  return rows.map((row) => row.playlist_id);
}

/** The playlists of `userId`, with their songs (the change feed names them when the user is deleted). */
export async function findPlaylistsOfUser(db: Db, userId: string): Promise<PlaylistWithSongs[]> {
  const rows = await db.selectFrom('playlists').select('id').where('user_id', '=', userId).execute();
  return findPlaylistsWithSongs(
    db,
    rows.map((row) => row.id),
  );
}
