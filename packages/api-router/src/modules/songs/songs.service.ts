import {
  type Db,
  deleteSong as deleteSongRow,
  findArtistIdsByUserId,
  findExistingArtistIds,
  findSongById,
  findSongsWithArtists,
  insertSong,
  isUuid,
  listSongIds,
  type SongUpdate,
  type SongWithArtists,
  setSongArtists,
  updateSong as updateSongRow,
  uuidv7,
} from '@music/db';
import type { Actor, Context } from '../../context';
import { AppError, validationError } from '../../errors';
import { pageWindow } from '../../schemas';
import {
  type CreateSongInput,
  type ListSongsInput,
  type PatchSongInput,
  type Song,
  toSong,
} from './songs.schema';

type AuthedContext = Context & { actor: Actor };

const isAdmin = (actor: Actor) => actor.user.role === 'admin';

async function loadSong(db: Db, songId: string): Promise<SongWithArtists> {
  const song = isUuid(songId) ? await findSongById(db, songId) : undefined;
  if (!song) throw new AppError('NOT_FOUND', 'Song not found');
  return song;
}

/** Unknown artists in the body are a 422 on `artistIds.N`. Returns the ids lower-cased. */
async function assertArtistsExist(db: Db, artistIds: readonly string[]): Promise<string[]> {
  const ids = artistIds.map((id) => id.toLowerCase());
  const existing = await findExistingArtistIds(db, ids);
  const missing = ids.flatMap((id, index) =>
    existing.has(id) ? [] : [{ field: `artistIds.${index}`, message: 'No artist with this id' }],
  );
  if (missing.length > 0) throw validationError(missing);
  return ids;
}

/** A non-admin must keep at least one artist they manage on the song, or they would lose it. */
function assertIncludesOwn(artistIds: readonly string[], own: readonly string[]): void {
  if (!artistIds.some((id) => own.includes(id))) {
    throw new AppError('FORBIDDEN', 'artistIds must include an artist linked to your account');
  }
}

export async function listSongs(ctx: AuthedContext, input: ListSongsInput) {
  const { ids, total } = await listSongIds(ctx.db, {
    search: input.search || undefined,
    genre: input.genre || undefined,
    artistId: input.artistId,
    ...pageWindow(input),
  });
  const songs = await findSongsWithArtists(ctx.db, ids);
  return { data: songs.map(toSong), pagination: { page: input.page, limit: input.limit, total } };
}

/**
 * Admins create any song. An `artist` account creates songs of the artists linked to it: its
 * `artistIds` must include one of them, and omitted `artistIds` means all of them.
 */
export async function createSong(ctx: AuthedContext, input: CreateSongInput): Promise<Song> {
  const { user } = ctx.actor;
  let own: string[] = [];
  let requested = input.artistIds;
  if (!isAdmin(ctx.actor)) {
    if (user.role !== 'artist') throw new AppError('FORBIDDEN', 'Only admins and artists may create songs');
    own = await findArtistIdsByUserId(ctx.db, user.id);
    if (requested === undefined) {
      if (own.length === 0) throw new AppError('FORBIDDEN', 'Your account is not linked to any artist');
      requested = own;
    }
  }
  const artistIds = await assertArtistsExist(ctx.db, requested ?? []);
  if (!isAdmin(ctx.actor)) assertIncludesOwn(artistIds, own);

  const song = await ctx.db.transaction().execute(async (trx) => {
    const row = await insertSong(trx, {
      id: uuidv7(),
      title: input.title,
      album: input.album ?? null,
      genre: input.genre ?? null,
      duration: input.duration,
      release_year: input.releaseYear ?? null,
    });
    await setSongArtists(trx, row.id, artistIds);
    return findSongById(trx, row.id);
  });
  return toSong(song!);
}

export async function getSong(ctx: AuthedContext, songId: string): Promise<Song> {
  return toSong(await loadSong(ctx.db, songId));
}

/** Admins, or a user linked to one of the song's current artists. Returns the caller's artists. */
async function assertMaySongWrite(ctx: AuthedContext, song: SongWithArtists): Promise<string[]> {
  if (isAdmin(ctx.actor)) return [];
  const own = await findArtistIdsByUserId(ctx.db, ctx.actor.user.id);
  if (!song.artist_ids.some((id) => own.includes(id))) {
    throw new AppError(
      'FORBIDDEN',
      'Only an admin or a user linked to one of the song’s artists may change it',
    );
  }
  return own;
}

/** Partial update; a given `artistIds` replaces the song's artists, in its order. */
export async function patchSong(ctx: AuthedContext, input: PatchSongInput): Promise<Song> {
  const song = await loadSong(ctx.db, input.songId);
  const own = await assertMaySongWrite(ctx, song);
  let artistIds: string[] | undefined;
  if (input.artistIds !== undefined) {
    artistIds = await assertArtistsExist(ctx.db, input.artistIds);
    if (!isAdmin(ctx.actor)) assertIncludesOwn(artistIds, own);
  }
  const patch: SongUpdate = {};
  if (input.title !== undefined) patch.title = input.title;
  if (input.album !== undefined) patch.album = input.album;
  if (input.genre !== undefined) patch.genre = input.genre;
  if (input.duration !== undefined) patch.duration = input.duration;
  if (input.releaseYear !== undefined) patch.release_year = input.releaseYear;

  const updated = await ctx.db.transaction().execute(async (trx) => {
    // The update locks the song row first, so concurrent artist links wait for the new set.
    if (!(await updateSongRow(trx, song.id, patch))) return undefined;
    if (artistIds) await setSongArtists(trx, song.id, artistIds);
    return findSongById(trx, song.id);
  });
  if (!updated) throw new AppError('NOT_FOUND', 'Song not found');
  return toSong(updated);
}

/** It leaves every playlist and artist link. */
export async function deleteSong(ctx: AuthedContext, songId: string): Promise<void> {
  const song = await loadSong(ctx.db, songId);
  await assertMaySongWrite(ctx, song);
  const deleted = await ctx.db.transaction().execute((trx) => deleteSongRow(trx, song.id));
  if (!deleted) throw new AppError('NOT_FOUND', 'Song not found');
}
