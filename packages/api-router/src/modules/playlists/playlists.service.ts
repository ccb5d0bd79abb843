import {
  type Db,
  isForeignKeyViolation,
  isUniqueViolation,
  isUuid,
  type OrderKey,
  type PlaylistRow,
  type PlaylistSortColumn,
  type PlaylistWithSongs,
  playlists,
  songs,
  users,
  uuidv7,
} from '@music/db';
import { AUDITED_FIELDS, changesOf, recordAudit, recordCreated } from '../../audit';
import type { Actor, Context } from '../../context';
import { AppError, validationError } from '../../errors';
import {
  type AuthedContext,
  assertIdExists,
  assertIdsExist,
  assertPrecondition,
  isAdmin,
  listPage,
  loadOr404,
  orderOr,
  sortOrder,
} from '../../kernel';
import { idList } from '../../schemas';
import { songPage } from '../songs/songs.service';
import {
  type AddPlaylistSongInput,
  type CreatePlaylistInput,
  type ListPlaylistSongsInput,
  type ListPlaylistsInput,
  MAX_PLAYLIST_SONGS,
  type Playlist,
  type PlaylistSongInput,
  type PlaylistSortField,
  playlistSchema,
  type ReplacePlaylistInput,
  toPlaylist,
} from './playlists.schema';

const notFound = () => new AppError('NOT_FOUND', 'Playlist not found');
const alreadyThere = () => new AppError('CONFLICT', 'The song is already in this playlist');

const SORT_COLUMNS: Record<PlaylistSortField, PlaylistSortColumn> = { name: 'name', createdAt: 'created_at' };

const loadPlaylist = (ctx: Context, playlistId: string) =>
  loadOr404(playlistId, (id) => playlists.findPlaylistById(ctx.db, id), 'Playlist');

/** The owner and admins read any playlist; everyone signed in reads public ones. */
function assertMayRead(actor: Actor, playlist: PlaylistRow): void {
  if (!playlist.is_public && !isAdmin(actor) && playlist.user_id !== actor.user.id) {
    throw new AppError('FORBIDDEN', 'This playlist is private');
  }
}

/** Only the owner (and admins) change a playlist, public or not. */
function assertMayWrite(actor: Actor, playlist: PlaylistRow): void {
  if (!isAdmin(actor) && playlist.user_id !== actor.user.id) {
    throw new AppError('FORBIDDEN', 'Only the owner may change this playlist');
  }
}

const findSongs = (db: Db) => (ids: readonly string[]) => songs.findExistingSongIds(db, ids);

/** Unknown songs in the body are a 422 on `songIds.N`. Returns the ids lower-cased. */
const assertSongsExist = (db: Db, songIds: readonly string[]) =>
  assertIdsExist(songIds, findSongs(db), 'songIds', 'song');

/**
 * A song checked a moment ago and deleted before it was linked (the foreign key refuses the
 * link): the same 422 as a song that never existed, not a 500.
 */
function songGone(error: unknown, field: string): unknown {
  if (!isForeignKeyViolation(error, 'playlist_songs_song_id_fkey')) return error;
  return validationError([{ field, message: 'No song with this id' }]);
}

/**
 * Runs `change` in a transaction holding the playlist's row lock, with the playlist as it is
 * now (re-read under the lock, songs included). Every change to a playlist's representation
 * takes this lock first, so what `change` checks `If-Match` against is what it writes over.
 * A playlist that is malformed, unknown or gone meanwhile is 404; another user's is 403.
 */
/**
 * The playlist as its GET shows it after its songs changed: the locked row as `updatePlaylist`
 * stamped it, with `songIds` (for the change feed, without reading it again). Undefined when the
 * row is gone (then the feed reads it, and finds nothing).
 */
function afterSongs(current: PlaylistWithSongs, stamped: PlaylistRow | undefined, songIds: string[]) {
  return stamped && toPlaylist({ ...current, ...stamped, song_ids: songIds });
}

async function withPlaylistLocked<T>(
  ctx: AuthedContext,
  playlistId: string,
  change: (trx: Db, current: PlaylistWithSongs) => Promise<T>,
): Promise<T> {
  if (!isUuid(playlistId)) throw notFound();
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await playlists.lockPlaylist(trx, playlistId))) throw notFound();
    const current = await playlists.findPlaylistById(trx, playlistId);
    if (!current) throw notFound();
    assertMayWrite(ctx.actor, current);
    return change(trx, current);
  });
}

/**
 * A non-admin lists their own playlists; an admin every one or `userId`'s. With
 * `visibility=public` anyone signed in lists the public playlists of everyone (or of `userId`).
 * With `ids` and neither, a non-admin gets those of the ids they may read: their own and the
 * public ones.
 */
export async function listPlaylists(ctx: AuthedContext, input: ListPlaylistsInput) {
  let userId = input.userId;
  let readableBy: string | undefined;
  const publicOnly = input.visibility === 'public';
  const ids = idList(input.ids);
  if (!isAdmin(ctx.actor) && !publicOnly) {
    if (userId !== undefined && userId !== ctx.actor.user.id) {
      throw new AppError('FORBIDDEN', 'You may only list your own playlists');
    }
    if (ids && userId === undefined) readableBy = ctx.actor.user.id;
    else userId = ctx.actor.user.id;
  }
  const sort = sortOrder(input.sort, SORT_COLUMNS);
  const filters = { userId, publicOnly, ids, readableBy, artistId: input.artistId, sort };
  const rowsOf = (found: string[]) => playlists.findPlaylistsWithSongs(ctx.db, found);
  return listPage(
    input,
    'playlists',
    orderOr(sort, OLDEST_FIRST),
    {
      byOffset: async (window) => {
        const { ids: found, total } = await playlists.listPlaylistIds(ctx.db, { ...filters, ...window });
        return { rows: await rowsOf(found), total };
      },
      after: async (window) => {
        const { ids: found, next } = await playlists.listPlaylistIdsAfter(ctx.db, { ...filters, ...window });
        return { rows: await rowsOf(found), next };
      },
    },
    toPlaylist,
  );
}

/** The order of `GET /playlists` without `sort`: oldest first (then id). */
const OLDEST_FIRST: readonly OrderKey<PlaylistSortColumn>[] = [{ column: 'created_at', descending: false }];

/** For yourself; an admin may name another owner with `userId`. */
export async function createPlaylist(ctx: AuthedContext, input: CreatePlaylistInput): Promise<Playlist> {
  const ownerId = input.userId ?? ctx.actor.user.id;
  if (ownerId !== ctx.actor.user.id) {
    if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'You may only create playlists for yourself');
    if (!(await users.findUserById(ctx.db, ownerId))) {
      throw validationError([{ field: 'userId', message: 'No user with this id' }]);
    }
  }
  const songIds = await assertSongsExist(ctx.db, input.songIds ?? []);
  const playlist = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const row = await playlists.insertPlaylist(trx, {
        id: uuidv7(),
        user_id: ownerId,
        name: input.name,
        description: input.description ?? null,
        is_public: input.isPublic ?? false,
      });
      await playlists.setPlaylistSongs(trx, row.id, songIds);
      const created = await playlists.findPlaylistById(trx, row.id);
      await recordCreated(trx, ctx, 'playlist', toPlaylist(created!));
      return created;
    })
    .catch((error: unknown) => {
      throw songGone(error, 'songIds');
    });
  return toPlaylist(playlist!);
}

export async function getPlaylist(ctx: AuthedContext, playlistId: string): Promise<Playlist> {
  const playlist = await loadPlaylist(ctx, playlistId);
  assertMayRead(ctx.actor, playlist);
  return toPlaylist(playlist);
}

const sameOrder = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * Full replace of the fields: omitted `description`/`isPublic` reset to null/false. A given
 * `songIds` replaces the whole order (this is how a playlist is reordered); an omitted one
 * leaves the songs as they are. A replace that changes nothing writes nothing, so `updatedAt`
 * and the ETag stay as they were.
 */
export async function replacePlaylist(ctx: AuthedContext, input: ReplacePlaylistInput): Promise<Playlist> {
  const playlist = await withPlaylistLocked(ctx, input.playlistId, async (trx, current) => {
    const songIds = input.songIds === undefined ? undefined : await assertSongsExist(trx, input.songIds);
    assertPrecondition(ctx, playlistSchema, toPlaylist(current));
    const fields = {
      name: input.name,
      description: input.description ?? null,
      is_public: input.isPublic ?? false,
    };
    const fieldsChanged =
      fields.name !== current.name ||
      fields.description !== current.description ||
      fields.is_public !== current.is_public;
    const songsChanged = songIds !== undefined && !sameOrder(songIds, current.song_ids);
    if (!fieldsChanged && !songsChanged) return current;
    if (songsChanged) await playlists.setPlaylistSongs(trx, current.id, songIds);
    await playlists.updatePlaylist(trx, current.id, fieldsChanged ? fields : {});
    const after = await playlists.findPlaylistById(trx, current.id);
    const reordered = !fieldsChanged && sameOrder([...songIds!].sort(), [...current.song_ids].sort());
    await recordAudit(trx, ctx, {
      action: reordered ? 'playlist.songs_reordered' : 'playlist.updated',
      target: { type: 'playlist', id: current.id },
      changes: changesOf(toPlaylist(current), toPlaylist(after!), AUDITED_FIELDS.playlist),
      record: toPlaylist(after!),
    });
    return after;
  }).catch((error: unknown) => {
    throw songGone(error, 'songIds');
  });
  return toPlaylist(playlist!);
}

/** The songs stay. */
export async function deletePlaylist(ctx: AuthedContext, playlistId: string): Promise<void> {
  await withPlaylistLocked(ctx, playlistId, async (trx, current) => {
    assertPrecondition(ctx, playlistSchema, toPlaylist(current));
    await playlists.deletePlaylist(trx, current.id);
    await recordAudit(trx, ctx, {
      action: 'playlist.deleted',
      target: { type: 'playlist', id: current.id },
      changes: changesOf(toPlaylist(current), null, AUDITED_FIELDS.playlist),
      record: toPlaylist(current),
    });
  });
}

/** Always in playlist order: a playlist's songs take no `sort`. */
/** A playlist's songs are in playlist order (then song id). */
const IN_PLAYLIST_ORDER: readonly OrderKey<string>[] = [{ column: 'position', descending: false }];

export async function listPlaylistSongs(ctx: AuthedContext, input: ListPlaylistSongsInput) {
  const playlist = await loadPlaylist(ctx, input.playlistId);
  assertMayRead(ctx.actor, playlist);
  return songPage(ctx, input, 'playlist-songs', IN_PLAYLIST_ORDER, {
    byOffset: (window) => playlists.listPlaylistSongIds(ctx.db, { playlistId: playlist.id, ...window }),
    after: (window) => playlists.listPlaylistSongIdsAfter(ctx.db, { playlistId: playlist.id, ...window }),
  });
}

/**
 * Appends the song. The playlist row is locked before its songs are read, so concurrent adds
 * queue: of two adds of one song, the second sees the first and answers 409; adds of different
 * songs get distinct positions. The primary key is the backstop. Checks, in order: the song
 * exists (422), `If-Match` (412), not there yet (409), room left (409).
 */
export async function addSong(ctx: AuthedContext, input: AddPlaylistSongInput): Promise<void> {
  try {
    await withPlaylistLocked(ctx, input.playlistId, async (trx, current) => {
      const songId = await assertIdExists(input.songId, findSongs(trx), 'songId', 'song');
      assertPrecondition(ctx, playlistSchema, toPlaylist(current));
      if (current.song_ids.includes(songId)) throw alreadyThere();
      if (current.song_ids.length >= MAX_PLAYLIST_SONGS) {
        throw new AppError('CONFLICT', `The playlist is full (at most ${MAX_PLAYLIST_SONGS} songs)`);
      }
      await playlists.appendPlaylistSong(trx, { playlistId: current.id, songId });
      const stamped = await playlists.updatePlaylist(trx, current.id, {});
      await recordAudit(trx, ctx, {
        action: 'playlist.song_added',
        target: { type: 'playlist', id: current.id },
        changes: { songId: { before: null, after: songId } },
        record: afterSongs(current, stamped, [...current.song_ids, songId]),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'playlist_songs_pkey')) throw alreadyThere();
    throw songGone(error, 'songId');
  }
}

/**
 * The song stays in the system. A song that is not in the playlist is 404 (the path names
 * nothing), before `If-Match` is looked at.
 */
export async function removeSong(ctx: AuthedContext, input: PlaylistSongInput): Promise<void> {
  await withPlaylistLocked(ctx, input.playlistId, async (trx, current) => {
    if (!current.song_ids.includes(input.songId)) {
      throw new AppError('NOT_FOUND', 'The song is not in this playlist');
    }
    assertPrecondition(ctx, playlistSchema, toPlaylist(current));
    await playlists.removePlaylistSong(trx, { playlistId: current.id, songId: input.songId });
    const stamped = await playlists.updatePlaylist(trx, current.id, {});
    await recordAudit(trx, ctx, {
      action: 'playlist.song_removed',
      target: { type: 'playlist', id: current.id },
      changes: { songId: { before: input.songId, after: null } },
      record: afterSongs(
        current,
        stamped,
        current.song_ids.filter((id) => id !== input.songId),
      ),
    });
  });
}
