import { type ArtistRow, artists, type Db, type OrderKey, songs, users, uuidv7 } from '@music/db';
import { AUDITED_FIELDS, changesOf, recordAudit, recordCreated } from '../../audit';
import type { Actor, Context } from '../../context';
import { AppError, validationError } from '../../errors';
import {
  type AuthedContext,
  assertPrecondition,
  isAdmin,
  listPage,
  loadOr404,
  orderOr,
  sortOrder,
} from '../../kernel';
import { idList, RELEVANCE } from '../../schemas';
import { assertMaySongWrite, lockSongOr404, songPage } from '../songs/songs.service';
import {
  type Artist,
  type ArtistSongInput,
  type ArtistSortField,
  artistSchema,
  type CreateArtistInput,
  type ListArtistSongsInput,
  type ListArtistsInput,
  type PatchArtistInput,
  type ReplaceArtistInput,
  toArtist,
} from './artists.schema';

const loadArtist = (ctx: Context, artistId: string) =>
  loadOr404(artistId, (id) => artists.findArtistById(ctx.db, id), 'Artist');

/** The artist, its row locked for the rest of the transaction, or 404: what a write changes. */
const lockArtistOr404 = (trx: Db, artistId: string) =>
  loadOr404(artistId, (id) => artists.lockArtist(trx, id), 'Artist');

/**
 * Changing an artist and its song links: admins, and the account linked to the artist while it
 * has the role `artist` (read fresh on every request: a demoted account keeps its link,
 * `Artist.userId`, but loses the power at once, on every instance).
 */
function assertManages(actor: Actor, artist: ArtistRow): void {
  if (isAdmin(actor)) return;
  if (artist.user_id !== actor.user.id || actor.user.role !== 'artist') {
    throw new AppError('FORBIDDEN', 'Only an admin or the artist’s linked user may change this artist');
  }
}

/** A link names an existing account with role `artist`; anything else is a bad body reference. */
async function assertArtistAccount(db: Db, userId: string): Promise<void> {
  const user = await users.findUserById(db, userId);
  if (user?.role !== 'artist') {
    throw validationError([{ field: 'userId', message: 'Must be the id of a user with role artist' }]);
  }
}

/**
 * The `userId` a write leaves on the artist. Only admins may change the link; a non-admin may
 * repeat the current one. `requested` undefined means the field was omitted: `fallback` applies.
 */
async function resolveLink(
  ctx: AuthedContext,
  db: Db,
  artist: ArtistRow | undefined,
  requested: string | null | undefined,
  fallback: string | null,
): Promise<string | null> {
  const current = artist?.user_id ?? null;
  const wanted = requested === undefined ? fallback : requested;
  if (wanted === current) return current;
  if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only an admin may change an artist’s userId');
  // Only a new link is checked: keeping an existing one never fails (its account may have
  // changed role since it was linked).
  if (wanted !== null) await assertArtistAccount(db, wanted);
  return wanted;
}

/** The columns of the `sort` fields (no `sort`: the repository's default, by name). */
const SORT_COLUMNS: Record<ArtistSortField, artists.ArtistSortColumn> = {
  name: 'name',
  createdAt: 'created_at',
};

const BY_NAME: readonly OrderKey<artists.ArtistSortColumn>[] = [{ column: 'name', descending: false }];

export function listArtists(ctx: AuthedContext, input: ListArtistsInput) {
  // `relevance` only comes with a search (the input's check).
  const sort =
    input.sort === RELEVANCE ? [...artists.ARTISTS_BY_RELEVANCE] : sortOrder(input.sort, SORT_COLUMNS);
  const filters = { search: input.search || undefined, userId: input.userId, ids: idList(input.ids), sort };
  return listPage(
    input,
    'artists',
    orderOr(sort, BY_NAME),
    {
      byOffset: (window) => artists.listArtists(ctx.db, { ...filters, ...window }),
      after: (window) => artists.listArtistsAfter(ctx.db, { ...filters, ...window }),
    },
    toArtist,
  );
}

export async function createArtist(ctx: AuthedContext, input: CreateArtistInput): Promise<Artist> {
  if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only admins may create artists');
  const userId = await resolveLink(ctx, ctx.db, undefined, input.userId, null);
  return ctx.db.transaction().execute(async (trx) => {
    const artist = toArtist(
      await artists.insertArtist(trx, {
        id: uuidv7(),
        name: input.name,
        bio: input.bio ?? null,
        user_id: userId,
      }),
    );
    await recordCreated(trx, ctx, 'artist', artist);
    return artist;
  });
}

export async function getArtist(ctx: AuthedContext, artistId: string): Promise<Artist> {
  return toArtist(await loadArtist(ctx, artistId));
}

/**
 * Full replace: an omitted `bio` becomes null, and so does an omitted `userId` when an admin
 * sends it. A non-admin's PUT that omits `userId` keeps the current link instead: they may not
 * change it, and a manager must not unlink themself (losing access) merely by leaving it out.
 */
export function replaceArtist(ctx: AuthedContext, input: ReplaceArtistInput): Promise<Artist> {
  return writeArtist(ctx, input.artistId, async (trx, artist) => ({
    name: input.name,
    bio: input.bio ?? null,
    user_id: await resolveLink(ctx, trx, artist, input.userId, isAdmin(ctx.actor) ? null : artist.user_id),
  }));
}

export function patchArtist(ctx: AuthedContext, input: PatchArtistInput): Promise<Artist> {
  return writeArtist(ctx, input.artistId, async (trx, artist) => {
    const wanted: artists.ArtistUpdate = {};
    if (input.name !== undefined) wanted.name = input.name;
    if (input.bio !== undefined) wanted.bio = input.bio;
    if (input.userId !== undefined) wanted.user_id = await resolveLink(ctx, trx, artist, input.userId, null);
    return wanted;
  });
}

/**
 * A PUT or PATCH, under the artist's row lock: existence (404), permission (403), the fields
 * the write wants (`change`, which may refuse with 403 or 422), `If-Match` (412), then the
 * write, of the fields that differ only: a write that changes nothing leaves the row, its
 * `updatedAt` and its ETag as they were.
 */
function writeArtist(
  ctx: AuthedContext,
  artistId: string,
  change: (trx: Db, artist: ArtistRow) => Promise<artists.ArtistUpdate>,
): Promise<Artist> {
  return ctx.db.transaction().execute(async (trx) => {
    const artist = await lockArtistOr404(trx, artistId);
    assertManages(ctx.actor, artist);
    const wanted = await change(trx, artist);
    assertPrecondition(ctx, artistSchema, toArtist(artist));
    const patch: artists.ArtistUpdate = {};
    if (wanted.name !== undefined && wanted.name !== artist.name) patch.name = wanted.name;
    if (wanted.bio !== undefined && wanted.bio !== artist.bio) patch.bio = wanted.bio;
    if (wanted.user_id !== undefined && wanted.user_id !== artist.user_id) patch.user_id = wanted.user_id;
    if (Object.keys(patch).length === 0) return toArtist(artist);
    const row = await artists.updateArtist(trx, artist.id, patch);
    if (!row) throw new AppError('NOT_FOUND', 'Artist not found');
    await recordAudit(trx, ctx, {
      action: 'artist.updated',
      target: { type: 'artist', id: artist.id },
      changes: changesOf(toArtist(artist), toArtist(row), AUDITED_FIELDS.artist),
      record: toArtist(row),
    });
    return toArtist(row);
  });
}

/** Its songs stay, unlinked from it. */
export async function deleteArtist(ctx: AuthedContext, artistId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const artist = await lockArtistOr404(trx, artistId);
    if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only admins may delete artists');
    const record = toArtist(artist);
    assertPrecondition(ctx, artistSchema, record);
    const linked = await artists.findSongIdsOfArtist(trx, artist.id);
    if (!(await artists.deleteArtist(trx, artist.id))) throw new AppError('NOT_FOUND', 'Artist not found');
    await recordAudit(trx, ctx, {
      action: 'artist.deleted',
      target: { type: 'artist', id: artist.id },
      changes: changesOf(record, null, AUDITED_FIELDS.artist),
      record,
      alsoChanged: linked.map((id) => ({ type: 'song.updated', id })),
    });
  });
}

/** An artist's songs are in title order (then id). */
const BY_TITLE: readonly OrderKey<string>[] = [{ column: 'title', descending: false }];

export async function listArtistSongs(ctx: AuthedContext, input: ListArtistSongsInput) {
  const artist = await loadArtist(ctx, input.artistId);
  return songPage(ctx, input, 'artist-songs', BY_TITLE, {
    byOffset: (window) => artists.listArtistSongIds(ctx.db, { artistId: artist.id, ...window }),
    after: (window) => artists.listArtistSongIdsAfter(ctx.db, { artistId: artist.id, ...window }),
  });
}

/**
 * Idempotent: linking twice succeeds. The song's new artist goes last. The song row stays locked
 * until commit (`lockSongOr404`), so concurrent links get distinct positions. A non-admin links
 * only a song they already manage (one of its artists is theirs): managing an artist is no claim
 * on somebody else's songs.
 */
export async function linkSong(ctx: AuthedContext, input: ArtistSongInput): Promise<void> {
  const artist = await loadArtist(ctx, input.artistId);
  await ctx.db.transaction().execute(async (trx) => {
    const song = await lockSongOr404(trx, input.songId);
    assertManages(ctx.actor, artist);
    await assertMaySongWrite(ctx, trx, song);
    if (await songs.linkSongArtist(trx, { songId: song.id, artistId: artist.id })) {
      await recordAudit(trx, ctx, {
        action: 'artist.song_linked',
        target: { type: 'artist', id: artist.id },
        changes: { songId: { before: null, after: song.id } },
      });
    }
  });
}

/** Unlinking an artist you manage from its song: the song was yours through that very link. */
export async function unlinkSong(ctx: AuthedContext, input: ArtistSongInput): Promise<void> {
  const artist = await loadArtist(ctx, input.artistId);
  await ctx.db.transaction().execute(async (trx) => {
    await lockSongOr404(trx, input.songId);
    assertManages(ctx.actor, artist);
    if (!(await songs.unlinkSongArtist(trx, { songId: input.songId, artistId: artist.id }))) {
      throw new AppError('NOT_FOUND', 'The song is not linked to this artist');
    }
    await recordAudit(trx, ctx, {
      action: 'artist.song_unlinked',
      target: { type: 'artist', id: artist.id },
      changes: { songId: { before: input.songId, after: null } },
    });
  });
}
