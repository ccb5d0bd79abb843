import {
  appendPlaylistSong,
  type Db,
  deletePlaylist as deletePlaylistRow,
  findExistingSongIds,
  findPlaylistById,
  findPlaylistsWithSongs,
  findSongsWithArtists,
  findUserById,
  hasPlaylistSong,
  insertPlaylist,
  isUniqueViolation,
  isUuid,
  listPlaylistIds,
  listPlaylistSongIds,
  lockPlaylist,
  type PlaylistRow,
  type PlaylistWithSongs,
  removePlaylistSong,
  setPlaylistSongs,
  updatePlaylist,
  uuidv7,
} from '@music/db';
import type { Actor, Context } from '../../context';
import { AppError, validationError } from '../../errors';
import { pageWindow } from '../../schemas';
import { toSong } from '../songs/songs.schema';
import {
  type AddPlaylistSongInput,
  type CreatePlaylistInput,
  type ListPlaylistSongsInput,
  type ListPlaylistsInput,
  type Playlist,
  type PlaylistSongInput,
  type ReplacePlaylistInput,
  toPlaylist,
} from './playlists.schema';

type AuthedContext = Context & { actor: Actor };

const isAdmin = (actor: Actor) => actor.user.role === 'admin';
const notFound = () => new AppError('NOT_FOUND', 'Playlist not found');
const alreadyThere = () => new AppError('CONFLICT', 'The song is already in this playlist');

async function loadPlaylist(db: Db, playlistId: string): Promise<PlaylistWithSongs> {
  const playlist = isUuid(playlistId) ? await findPlaylistById(db, playlistId) : undefined;
  if (!playlist) throw notFound();
  return playlist;
}

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

/** Unknown songs in the body are a 422 on `songIds.N`. Returns the ids lower-cased. */
async function assertSongsExist(db: Db, songIds: readonly string[]): Promise<string[]> {
  const ids = songIds.map((id) => id.toLowerCase());
  const existing = await findExistingSongIds(db, ids);
  const missing = ids.flatMap((id, index) =>
    existing.has(id) ? [] : [{ field: `songIds.${index}`, message: 'No song with this id' }],
  );
  if (missing.length > 0) throw validationError(missing);
  return ids;
}

export async function listPlaylists(ctx: AuthedContext, input: ListPlaylistsInput) {
  let userId = input.userId?.toLowerCase();
  const publicOnly = input.visibility === 'public';
  if (!isAdmin(ctx.actor) && !publicOnly) {
    if (userId !== undefined && userId !== ctx.actor.user.id) {
      throw new AppError('FORBIDDEN', 'You may only list your own playlists');
    }
    userId = ctx.actor.user.id;
  }
  const { ids, total } = await listPlaylistIds(ctx.db, { userId, publicOnly, ...pageWindow(input) });
  const playlists = await findPlaylistsWithSongs(ctx.db, ids);
  return { data: playlists.map(toPlaylist), pagination: { page: input.page, limit: input.limit, total } };
}

/** For yourself; an admin may name another owner with `userId`. */
export async function createPlaylist(ctx: AuthedContext, input: CreatePlaylistInput): Promise<Playlist> {
  const ownerId = input.userId?.toLowerCase() ?? ctx.actor.user.id;
  if (ownerId !== ctx.actor.user.id) {
    if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'You may only create playlists for yourself');
    if (!(await findUserById(ctx.db, ownerId))) {
      throw validationError([{ field: 'userId', message: 'No user with this id' }]);
    }
  }
  const songIds = await assertSongsExist(ctx.db, input.songIds ?? []);
  const playlist = await ctx.db.transaction().execute(async (trx) => {
    const row = await insertPlaylist(trx, {
      id: uuidv7(),
      user_id: ownerId,
      name: input.name,
      description: input.description ?? null,
      is_public: input.isPublic ?? false,
    });
    await setPlaylistSongs(trx, row.id, songIds);
    return findPlaylistById(trx, row.id);
  });
  return toPlaylist(playlist!);
}

export async function getPlaylist(ctx: AuthedContext, playlistId: string): Promise<Playlist> {
  const playlist = await loadPlaylist(ctx.db, playlistId);
  assertMayRead(ctx.actor, playlist);
  return toPlaylist(playlist);
}

/**
 * Full replace of the fields: omitted `description`/`isPublic` reset to null/false. A given
 * `songIds` replaces the whole order (this is how a playlist is reordered); an omitted one
 * leaves the songs as they are.
 */
export async function replacePlaylist(ctx: AuthedContext, input: ReplacePlaylistInput): Promise<Playlist> {
  const current = await loadPlaylist(ctx.db, input.playlistId);
  assertMayWrite(ctx.actor, current);
  const songIds = input.songIds === undefined ? undefined : await assertSongsExist(ctx.db, input.songIds);
  const playlist = await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockPlaylist(trx, current.id))) throw notFound();
    await updatePlaylist(trx, current.id, {
      name: input.name,
      description: input.description ?? null,
      is_public: input.isPublic ?? false,
    });
    if (songIds) await setPlaylistSongs(trx, current.id, songIds);
    return findPlaylistById(trx, current.id);
  });
  return toPlaylist(playlist!);
}

/** The songs stay. */
export async function deletePlaylist(ctx: AuthedContext, playlistId: string): Promise<void> {
  const playlist = await loadPlaylist(ctx.db, playlistId);
  assertMayWrite(ctx.actor, playlist);
  if (!(await deletePlaylistRow(ctx.db, playlist.id))) throw notFound();
}

export async function listPlaylistSongs(ctx: AuthedContext, input: ListPlaylistSongsInput) {
  const playlist = await loadPlaylist(ctx.db, input.playlistId);
  assertMayRead(ctx.actor, playlist);
  const { ids, total } = await listPlaylistSongIds(ctx.db, { playlistId: playlist.id, ...pageWindow(input) });
  const songs = await findSongsWithArtists(ctx.db, ids);
  return { data: songs.map(toSong), pagination: { page: input.page, limit: input.limit, total } };
}

/**
 * Appends the song. The playlist row is locked before the last position is read, so
 * concurrent adds queue: of two adds of one song, the second sees the first and answers 409;
 * adds of different songs get distinct positions. The primary key is the backstop.
 */
export async function addSong(ctx: AuthedContext, input: AddPlaylistSongInput): Promise<void> {
  const playlist = await loadPlaylist(ctx.db, input.playlistId);
  assertMayWrite(ctx.actor, playlist);
  const songId = input.songId.toLowerCase();
  if ((await findExistingSongIds(ctx.db, [songId])).size === 0) {
    throw validationError([{ field: 'songId', message: 'No song with this id' }]);
  }
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await lockPlaylist(trx, playlist.id))) throw notFound();
      if (await hasPlaylistSong(trx, { playlistId: playlist.id, songId })) throw alreadyThere();
      await appendPlaylistSong(trx, { playlistId: playlist.id, songId });
      await updatePlaylist(trx, playlist.id, {});
    });
  } catch (error) {
    if (isUniqueViolation(error, 'playlist_songs_pkey')) throw alreadyThere();
    throw error;
  }
}

/** The song stays in the system; 404 when it was not in the playlist. */
export async function removeSong(ctx: AuthedContext, input: PlaylistSongInput): Promise<void> {
  const playlist = await loadPlaylist(ctx.db, input.playlistId);
  assertMayWrite(ctx.actor, playlist);
  const songId = input.songId;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockPlaylist(trx, playlist.id))) throw notFound();
    if (!isUuid(songId) || !(await removePlaylistSong(trx, { playlistId: playlist.id, songId }))) {
      throw new AppError('NOT_FOUND', 'The song is not in this playlist');
    }
    await updatePlaylist(trx, playlist.id, {});
  });
}
