import { isUniqueViolation, isUuid, type PlaylistRow, playlists, songs, users, uuidv7 } from '@music/db';
import type { Actor, Context } from '../../context';
import { AppError, validationError } from '../../errors';
import { type AuthedContext, assertIdExists, assertIdsExist, isAdmin, loadOr404, page } from '../../kernel';
import { songPage } from '../songs/songs.service';
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

const notFound = () => new AppError('NOT_FOUND', 'Playlist not found');
const alreadyThere = () => new AppError('CONFLICT', 'The song is already in this playlist');

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

const findSongs = (ctx: Context) => (ids: readonly string[]) => songs.findExistingSongIds(ctx.db, ids);

/** Unknown songs in the body are a 422 on `songIds.N`. Returns the ids lower-cased. */
const assertSongsExist = (ctx: Context, songIds: readonly string[]) =>
  assertIdsExist(songIds, findSongs(ctx), 'songIds', 'song');

export async function listPlaylists(ctx: AuthedContext, input: ListPlaylistsInput) {
  let userId = input.userId?.toLowerCase();
  const publicOnly = input.visibility === 'public';
  if (!isAdmin(ctx.actor) && !publicOnly) {
    if (userId !== undefined && userId !== ctx.actor.user.id) {
      throw new AppError('FORBIDDEN', 'You may only list your own playlists');
    }
    userId = ctx.actor.user.id;
  }
  return page(
    input,
    async (window) => {
      const { ids, total } = await playlists.listPlaylistIds(ctx.db, { userId, publicOnly, ...window });
      return { rows: await playlists.findPlaylistsWithSongs(ctx.db, ids), total };
    },
    toPlaylist,
  );
}

/** For yourself; an admin may name another owner with `userId`. */
export async function createPlaylist(ctx: AuthedContext, input: CreatePlaylistInput): Promise<Playlist> {
  const ownerId = input.userId?.toLowerCase() ?? ctx.actor.user.id;
  if (ownerId !== ctx.actor.user.id) {
    if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'You may only create playlists for yourself');
    if (!(await users.findUserById(ctx.db, ownerId))) {
      throw validationError([{ field: 'userId', message: 'No user with this id' }]);
    }
  }
  const songIds = await assertSongsExist(ctx, input.songIds ?? []);
  const playlist = await ctx.db.transaction().execute(async (trx) => {
    const row = await playlists.insertPlaylist(trx, {
      id: uuidv7(),
      user_id: ownerId,
      name: input.name,
      description: input.description ?? null,
      is_public: input.isPublic ?? false,
    });
    await playlists.setPlaylistSongs(trx, row.id, songIds);
    return playlists.findPlaylistById(trx, row.id);
  });
  return toPlaylist(playlist!);
}

export async function getPlaylist(ctx: AuthedContext, playlistId: string): Promise<Playlist> {
  const playlist = await loadPlaylist(ctx, playlistId);
  assertMayRead(ctx.actor, playlist);
  return toPlaylist(playlist);
}

/**
 * Full replace of the fields: omitted `description`/`isPublic` reset to null/false. A given
 * `songIds` replaces the whole order (this is how a playlist is reordered); an omitted one
 * leaves the songs as they are.
 */
export async function replacePlaylist(ctx: AuthedContext, input: ReplacePlaylistInput): Promise<Playlist> {
  const current = await loadPlaylist(ctx, input.playlistId);
  assertMayWrite(ctx.actor, current);
  const songIds = input.songIds === undefined ? undefined : await assertSongsExist(ctx, input.songIds);
  const playlist = await ctx.db.transaction().execute(async (trx) => {
    if (!(await playlists.lockPlaylist(trx, current.id))) throw notFound();
    await playlists.updatePlaylist(trx, current.id, {
      name: input.name,
      description: input.description ?? null,
      is_public: input.isPublic ?? false,
    });
    if (songIds) await playlists.setPlaylistSongs(trx, current.id, songIds);
    return playlists.findPlaylistById(trx, current.id);
  });
  return toPlaylist(playlist!);
}

/** The songs stay. */
export async function deletePlaylist(ctx: AuthedContext, playlistId: string): Promise<void> {
  const playlist = await loadPlaylist(ctx, playlistId);
  assertMayWrite(ctx.actor, playlist);
  if (!(await playlists.deletePlaylist(ctx.db, playlist.id))) throw notFound();
}

export async function listPlaylistSongs(ctx: AuthedContext, input: ListPlaylistSongsInput) {
  const playlist = await loadPlaylist(ctx, input.playlistId);
  assertMayRead(ctx.actor, playlist);
  return songPage(ctx, input, (window) =>
    playlists.listPlaylistSongIds(ctx.db, { playlistId: playlist.id, ...window }),
  );
}

/**
 * Appends the song. The playlist row is locked before the last position is read, so
 * concurrent adds queue: of two adds of one song, the second sees the first and answers 409;
 * adds of different songs get distinct positions. The primary key is the backstop.
 */
export async function addSong(ctx: AuthedContext, input: AddPlaylistSongInput): Promise<void> {
  const playlist = await loadPlaylist(ctx, input.playlistId);
  assertMayWrite(ctx.actor, playlist);
  const songId = await assertIdExists(input.songId, findSongs(ctx), 'songId', 'song');
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await playlists.lockPlaylist(trx, playlist.id))) throw notFound();
      if (await playlists.hasPlaylistSong(trx, { playlistId: playlist.id, songId })) throw alreadyThere();
      await playlists.appendPlaylistSong(trx, { playlistId: playlist.id, songId });
      await playlists.updatePlaylist(trx, playlist.id, {});
    });
  } catch (error) {
    if (isUniqueViolation(error, 'playlist_songs_pkey')) throw alreadyThere();
    throw error;
  }
}

/** The song stays in the system; 404 when it was not in the playlist. */
export async function removeSong(ctx: AuthedContext, input: PlaylistSongInput): Promise<void> {
  const playlist = await loadPlaylist(ctx, input.playlistId);
  assertMayWrite(ctx.actor, playlist);
  const songId = input.songId;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await playlists.lockPlaylist(trx, playlist.id))) throw notFound();
    if (!isUuid(songId) || !(await playlists.removePlaylistSong(trx, { playlistId: playlist.id, songId }))) {
      throw new AppError('NOT_FOUND', 'The song is not in this playlist');
    }
    await playlists.updatePlaylist(trx, playlist.id, {});
  });
}
