import { artists, songs, uuidv7 } from '@music/db';
import type { Context } from '../../context';
import { AppError } from '../../errors';
import { type AuthedContext, assertIdsExist, isAdmin, loadOr404, page } from '../../kernel';
import {
  type CreateSongInput,
  type ListSongsInput,
  type PatchSongInput,
  type Song,
  toSong,
} from './songs.schema';

const loadSong = (ctx: Context, songId: string) =>
  loadOr404(songId, (id) => songs.findSongById(ctx.db, id), 'Song');

/** Unknown artists in the body are a 422 on `artistIds.N`. Returns the ids lower-cased. */
const assertArtistsExist = (ctx: Context, artistIds: readonly string[]) =>
  assertIdsExist(artistIds, (ids) => artists.findExistingArtistIds(ctx.db, ids), 'artistIds', 'artist');

/**
 * One page of songs, each with its artists: the catalogue's, an artist's and a playlist's song
 * lists all answer this way, from the ids of the page and the total.
 */
export function songPage(
  ctx: Context,
  input: { page: number; limit: number },
  pageIds: (window: { limit: number; offset: number }) => Promise<{ ids: string[]; total: number }>,
) {
  return page(
    input,
    async (window) => {
      const { ids, total } = await pageIds(window);
      return { rows: await songs.findSongsWithArtists(ctx.db, ids), total };
    },
    toSong,
  );
}

/** A non-admin must keep at least one artist they manage on the song, or they would lose it. */
function assertIncludesOwn(artistIds: readonly string[], own: readonly string[]): void {
  if (!artistIds.some((id) => own.includes(id))) {
    throw new AppError('FORBIDDEN', 'artistIds must include an artist linked to your account');
  }
}

export function listSongs(ctx: AuthedContext, input: ListSongsInput) {
  const filters = { genre: input.genre || undefined, artistId: input.artistId };
  const search = input.search || undefined;
  return songPage(ctx, input, (window) =>
    search
      ? ctx.searchCache.search({ ...filters, search, ...window })
      : songs.listSongIds(ctx.db, { ...filters, ...window }),
  );
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
    own = await artists.findArtistIdsByUserId(ctx.db, user.id);
    if (requested === undefined) {
      if (own.length === 0) throw new AppError('FORBIDDEN', 'Your account is not linked to any artist');
      requested = own;
    }
  }
  const artistIds = await assertArtistsExist(ctx, requested ?? []);
  if (!isAdmin(ctx.actor)) assertIncludesOwn(artistIds, own);

  const song = await ctx.db.transaction().execute(async (trx) => {
    const row = await songs.insertSong(trx, {
      id: uuidv7(),
      title: input.title,
      album: input.album ?? null,
      genre: input.genre ?? null,
      duration: input.duration,
      release_year: input.releaseYear ?? null,
    });
    await songs.setSongArtists(trx, row.id, artistIds);
    return songs.findSongById(trx, row.id);
  });
  return toSong(song!);
}

export async function getSong(ctx: AuthedContext, songId: string): Promise<Song> {
  return toSong(await loadSong(ctx, songId));
}

/** Admins, or a user linked to one of the song's current artists. Returns the caller's artists. */
async function assertMaySongWrite(ctx: AuthedContext, song: songs.SongWithArtists): Promise<string[]> {
  if (isAdmin(ctx.actor)) return [];
  const own = await artists.findArtistIdsByUserId(ctx.db, ctx.actor.user.id);
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
  const song = await loadSong(ctx, input.songId);
  const own = await assertMaySongWrite(ctx, song);
  let artistIds: string[] | undefined;
  if (input.artistIds !== undefined) {
    artistIds = await assertArtistsExist(ctx, input.artistIds);
    if (!isAdmin(ctx.actor)) assertIncludesOwn(artistIds, own);
  }
  const patch: songs.SongUpdate = {};
  if (input.title !== undefined) patch.title = input.title;
  if (input.album !== undefined) patch.album = input.album;
  if (input.genre !== undefined) patch.genre = input.genre;
  if (input.duration !== undefined) patch.duration = input.duration;
  if (input.releaseYear !== undefined) patch.release_year = input.releaseYear;

  const updated = await ctx.db.transaction().execute(async (trx) => {
    // The update locks the song row first, so concurrent artist links wait for the new set.
    if (!(await songs.updateSong(trx, song.id, patch))) return undefined;
    if (artistIds) await songs.setSongArtists(trx, song.id, artistIds);
    return songs.findSongById(trx, song.id);
  });
  if (!updated) throw new AppError('NOT_FOUND', 'Song not found');
  return toSong(updated);
}

/** It leaves every playlist and artist link. */
export async function deleteSong(ctx: AuthedContext, songId: string): Promise<void> {
  const song = await loadSong(ctx, songId);
  await assertMaySongWrite(ctx, song);
  const deleted = await ctx.db.transaction().execute((trx) => songs.deleteSong(trx, song.id));
  if (!deleted) throw new AppError('NOT_FOUND', 'Song not found');
}
