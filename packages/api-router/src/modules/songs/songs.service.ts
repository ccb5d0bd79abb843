import {
  artists,
  type Db,
  isUniqueViolation,
  type Keyset,
  type OrderKey,
  playlists,
  songs,
  uuidv7,
} from '@music/db';
import { AUDITED_FIELDS, changesOf, recordAudit, recordCreated } from '../../audit';
import type { Context } from '../../context';
import type { ListInput } from '../../cursor';
import { AppError } from '../../errors';
import {
  type AuthedContext,
  assertIdsExist,
  assertPrecondition,
  isAdmin,
  listPage,
  loadOr404,
  orderOr,
  sortOrder,
} from '../../kernel';
import { idList, RELEVANCE } from '../../schemas';
import { expandOf, withArtists } from './song-expand';
import {
  type CreateSongInput,
  type GetSongInput,
  type ListSongsInput,
  type PatchSongInput,
  type Song,
  type SongRead,
  type SongSortField,
  songSchema,
  toSong,
} from './songs.schema';

const loadSong = (ctx: Context, songId: string) =>
  loadOr404(songId, (id) => songs.findSongById(ctx.db, id), 'Song');

/**
 * The song, locked for the rest of the transaction and read after the lock (its artists
 * included), or 404: what a write changes, and what `If-Match` is checked against.
 */
export const lockSongOr404 = (trx: Db, songId: string) =>
  loadOr404(
    songId,
    async (id) => ((await songs.lockSong(trx, id)) ? songs.findSongById(trx, id) : undefined),
    'Song',
  );

/** Unknown artists in the body are a 422 on `artistIds.N`. Returns the ids lower-cased. */
const assertArtistsExist = (db: Db, artistIds: readonly string[]) =>
  assertIdsExist(artistIds, (ids) => artists.findExistingArtistIds(db, ids), 'artistIds', 'artist');

/** How a song list reads its ids: a page by offset with its total, or after a position. */
export interface SongIdReads {
  byOffset: (window: { limit: number; offset: number }) => Promise<{ ids: string[]; total: number }>;
  after: (window: { limit: number; after: Keyset | null }) => Promise<{ ids: string[]; next: Keyset | null }>;
}

/**
 * One page of songs, each with its artists' ids (and the artists themselves with
 * `expand=artists`): the catalogue's, an artist's and a playlist's song lists all answer this
 * way, by page or by cursor, from the ids of the page.
 */
export async function songPage(
  ctx: Context,
  input: ListInput & { expand?: string | undefined },
  list: string,
  order: readonly OrderKey<string>[],
  reads: SongIdReads,
) {
  const expand = expandOf(input.expand);
  const rowsOf = (ids: string[]) => songs.findSongsWithArtists(ctx.db, ids);
  const answer = await listPage(
    input,
    list,
    order,
    {
      byOffset: async (window) => {
        const { ids, total } = await reads.byOffset(window);
        return { rows: await rowsOf(ids), total };
      },
      after: async (window) => {
        const { ids, next } = await reads.after(window);
        return { rows: await rowsOf(ids), next };
      },
    },
    (row): SongRead => toSong(row),
  );
  if (expand.artists) answer.data = await withArtists(ctx.db, answer.data);
  return answer;
}

/** A non-admin must keep at least one artist they manage on the song, or they would lose it. */
function assertIncludesOwn(artistIds: readonly string[], own: readonly string[]): void {
  if (!artistIds.some((id) => own.includes(id))) {
    throw new AppError('FORBIDDEN', 'artistIds must include an artist linked to your account');
  }
}

/**
 * A non-admin adds and removes only the artists they manage: the song's other artists stay, so
 * co-artists keep each other (and no one can hand a song to an artist who did not ask for it).
 * Their order may change.
 */
function assertChangesOnlyOwn(before: readonly string[], after: readonly string[], own: readonly string[]) {
  const changed = [
    ...after.filter((id) => !before.includes(id)),
    ...before.filter((id) => !after.includes(id)),
  ];
  if (changed.some((id) => !own.includes(id))) {
    throw new AppError(
      'FORBIDDEN',
      'You may add or remove only the artists linked to your account; the song’s other artists stay',
    );
  }
}

/** The columns of the `sort` fields (no `sort`: the repository's default, by title). */
const SORT_COLUMNS: Record<SongSortField, songs.SongSortColumn> = {
  title: 'title',
  album: 'album',
  releaseYear: 'release_year',
  duration: 'duration',
  createdAt: 'created_at',
};

/** The order of `GET /songs` without `sort`: by title (then id). */
const BY_TITLE: readonly OrderKey<songs.SongSortColumn>[] = [{ column: 'title', descending: false }];

export function listSongs(ctx: AuthedContext, input: ListSongsInput) {
  // `relevance` only comes with a search (the input's check).
  const relevance = input.sort === RELEVANCE;
  const sort = relevance ? [...songs.BY_RELEVANCE] : sortOrder(input.sort, SORT_COLUMNS);
  const filters = {
    genre: input.genre || undefined,
    artistId: input.artistId,
    ids: idList(input.ids),
    isrc: input.isrc,
    externalId: input.externalId,
    sort,
  };
  const search = input.search || undefined;
  return songPage(ctx, input, 'songs', orderOr(sort, BY_TITLE), {
    byOffset: (window) =>
      search
        ? // A ranked page reads popularity, which playlist changes move without moving the
          // catalogue version the cache relies on: it is read afresh each time.
          relevance
          ? songs.searchSongIds(ctx.db, { ...filters, search, ...window })
          : ctx.searchCache.search({ ...filters, search, ...window }, ctx.db)
        : songs.listSongIds(ctx.db, { ...filters, ...window }),
    // Keyset pages are cheap and read in their own snapshot: exact, with no cache to consult.
    after: (window) => songs.listSongIdsAfter(ctx.db, { ...filters, search, ...window }),
  });
}

/** A write's promise, with the unique indexes on `isrc` and `externalId` refusing it as a 409. */
async function keyTaken<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error, 'songs_isrc_key'))
      throw new AppError('CONFLICT', 'Another song has this ISRC');
    if (isUniqueViolation(error, 'songs_external_id_key'))
      throw new AppError('CONFLICT', 'Another song has this externalId');
    throw error;
  }
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
  const artistIds = await assertArtistsExist(ctx.db, requested ?? []);
  if (!isAdmin(ctx.actor)) assertIncludesOwn(artistIds, own);

  const song = await keyTaken(
    ctx.db.transaction().execute(async (trx) => {
      const row = await songs.insertSong(trx, {
        id: uuidv7(),
        title: input.title,
        album: input.album ?? null,
        genre: input.genre ?? null,
        duration: input.duration,
        release_year: input.releaseYear ?? null,
        isrc: input.isrc ?? null,
        external_id: input.externalId ?? null,
      });
      await songs.setSongArtists(trx, row.id, artistIds);
      const created = toSong((await songs.findSongById(trx, row.id))!);
      await recordCreated(trx, ctx, 'song', created);
      return created;
    }),
  );
  return song;
}

export async function getSong(ctx: AuthedContext, input: GetSongInput): Promise<SongRead> {
  const expand = expandOf(input.expand);
  const song = toSong(await loadSong(ctx, input.songId));
  if (!expand.artists) return song;
  const [expanded] = await withArtists(ctx.db, [song]);
  return expanded!;
}

/**
 * Admins, or an `artist` account (its role now, read fresh by the session check: a demoted
 * account loses the power at once) linked to one of the song's current artists. Returns the
 * caller's artists.
 */
export async function assertMaySongWrite(
  ctx: AuthedContext,
  db: Db,
  song: songs.SongWithArtists,
): Promise<string[]> {
  if (isAdmin(ctx.actor)) return [];
  if (ctx.actor.user.role !== 'artist') {
    throw new AppError('FORBIDDEN', 'Only an admin or an artist account may change songs');
  }
  const own = await artists.findArtistIdsByUserId(db, ctx.actor.user.id);
  if (!song.artist_ids.some((id) => own.includes(id))) {
    throw new AppError(
      'FORBIDDEN',
      'Only an admin or a user linked to one of the song’s artists may change it',
    );
  }
  return own;
}

/** The fields of `input` that differ from the song's: a PATCH that changes nothing writes nothing. */
function changedFields(song: songs.SongWithArtists, input: PatchSongInput): songs.SongUpdate {
  const patch: songs.SongUpdate = {};
  if (input.title !== undefined && input.title !== song.title) patch.title = input.title;
  if (input.album !== undefined && input.album !== song.album) patch.album = input.album;
  if (input.genre !== undefined && input.genre !== song.genre) patch.genre = input.genre;
  if (input.duration !== undefined && input.duration !== song.duration) patch.duration = input.duration;
  if (input.releaseYear !== undefined && input.releaseYear !== song.release_year) {
    patch.release_year = input.releaseYear;
  }
  if (input.isrc !== undefined && input.isrc !== song.isrc) patch.isrc = input.isrc;
  if (input.externalId !== undefined && input.externalId !== song.external_id) {
    patch.external_id = input.externalId;
  }
  return patch;
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * Partial update; a given `artistIds` replaces the song's artists, in its order. Everything
 * happens under the song's row lock: existence (404), permission (403), the body's artists
 * (422), `If-Match` (412), then the write, skipped when nothing would change (so `updatedAt`
 * and the ETag stay as they were).
 */
export async function patchSong(ctx: AuthedContext, input: PatchSongInput): Promise<Song> {
  const updated = await keyTaken(
    ctx.db.transaction().execute(async (trx) => {
      const song = await lockSongOr404(trx, input.songId);
      const own = await assertMaySongWrite(ctx, trx, song);
      let artistIds: string[] | undefined;
      if (input.artistIds !== undefined) {
        artistIds = await assertArtistsExist(trx, input.artistIds);
        if (!isAdmin(ctx.actor)) {
          assertChangesOnlyOwn(song.artist_ids, artistIds, own);
          assertIncludesOwn(artistIds, own);
        }
      }
      assertPrecondition(ctx, songSchema, toSong(song));
      const patch = changedFields(song, input);
      const newArtists = artistIds && !sameIds(artistIds, song.artist_ids) ? artistIds : undefined;
      if (Object.keys(patch).length === 0 && newArtists === undefined) return song;
      // Also when only the artists change: the song's updatedAt moves with its artistIds.
      await songs.updateSong(trx, song.id, patch);
      if (newArtists) await songs.setSongArtists(trx, song.id, newArtists);
      const after = await songs.findSongById(trx, song.id);
      if (after) {
        const record = toSong(after);
        await recordAudit(trx, ctx, {
          action: 'song.updated',
          target: { type: 'song', id: song.id },
          changes: changesOf(toSong(song), record, AUDITED_FIELDS.song),
          record,
        });
      }
      return after;
    }),
  );
  if (!updated) throw new AppError('NOT_FOUND', 'Song not found');
  return toSong(updated);
}

/** It leaves every playlist and artist link. */
export async function deleteSong(ctx: AuthedContext, songId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const song = await lockSongOr404(trx, songId);
    await assertMaySongWrite(ctx, trx, song);
    const record = toSong(song);
    assertPrecondition(ctx, songSchema, record);
    const holders = await playlists.findPlaylistIdsWithSong(trx, song.id);
    if (!(await songs.deleteSong(trx, song.id))) throw new AppError('NOT_FOUND', 'Song not found');
    await recordAudit(trx, ctx, {
      action: 'song.deleted',
      target: { type: 'song', id: song.id },
      changes: changesOf(record, null, AUDITED_FIELDS.song),
      record,
      alsoChanged: holders.map((id) => ({ type: 'playlist.updated', id })),
    });
  });
}
