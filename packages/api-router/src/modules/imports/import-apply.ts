import { artists, type Db, imports, songs, uuidv7 } from '@music/db';
import { AUDITED_FIELDS, changesOf, recordAudit, recordCreated } from '../../audit';
import type { Context } from '../../context';
import { toArtist } from '../artists/artists.schema';
import { toSong } from '../songs/songs.schema';
import type { ImportRecord, RecordError } from './import-rows';

/**
 * One record of an import, applied in the batch's transaction, as its sender: created, updated
 * (matched by `isrc`, else by `externalId`) or unchanged; or why not, as errors of its line. An
 * admin's unknown artist names are created; an artist account names only its own artists and
 * changes only its own songs (stricter than the API's song writes: an import cannot name a
 * co-artist the account does not manage).
 */

export type Outcome = 'created' | 'updated' | 'unchanged';

/** Who the import acts as, read when its run starts (the role now). */
export interface Importer {
  ctx: Context;
  admin: boolean;
  /** The artists an artist account manages. */
  own: string[];
}

const fail = (field: string, message: string): RecordError[] => [{ field, message }];

/** The record's artists as ids, in order, or why not. */
async function artistIdsOf(trx: Db, who: Importer, record: ImportRecord): Promise<string[] | RecordError[]> {
  const given = record.artists;
  if (given === undefined) return who.admin ? [] : who.own;
  if ('ids' in given) {
    const found = await Promise.all(given.ids.map((id) => artists.findArtistById(trx, id)));
    const missing = given.ids.filter((_, i) => !found[i]);
    if (missing.length > 0) return fail('artistIds', `No artist has the id ${missing[0]}`);
    if (!who.admin && given.ids.some((id) => !who.own.includes(id))) {
      return fail('artistIds', 'An artist account imports songs of its own artists only');
    }
    return given.ids;
  }
  const named = await imports.artistsNamed(trx, given.names);
  const ids: string[] = [];
  for (const name of given.names) {
    const matches = named.get(name) ?? [];
    if (!who.admin) {
      const mine = matches.filter((a) => who.own.includes(a.id));
      if (mine.length !== 1) return fail('artists', `No artist of yours is named ${JSON.stringify(name)}`);
      ids.push(mine[0]!.id);
      continue;
    }
    if (matches.length > 1) {
      return fail(
        'artists',
        `${matches.length} artists are named ${JSON.stringify(name)}: give artistIds instead`,
      );
    }
    if (matches[0]) {
      ids.push(matches[0].id);
      continue;
    }
    const created = await artists.insertArtist(trx, { id: uuidv7(), name, bio: null, user_id: null });
    await recordCreated(trx, who.ctx, 'artist', toArtist(created));
    named.set(name, [{ id: created.id, user_id: null }]);
    ids.push(created.id);
  }
  if (new Set(ids).size !== ids.length) return fail('artists', 'An artist is named twice');
  return ids;
}

/** The song the record updates: the one with its ISRC, else the one with its externalId. */
async function matchOf(trx: Db, record: ImportRecord) {
  const { isrc, externalId } = record.song;
  const byIsrc = isrc ? await imports.songByKey(trx, { isrc }) : undefined;
  const byExternal = externalId ? await imports.songByKey(trx, { externalId }) : undefined;
  if (byIsrc && byExternal && byIsrc.id !== byExternal.id) {
    return fail('externalId', 'Another song than the one with this isrc has this externalId');
  }
  return { song: byIsrc ?? byExternal };
}

export async function applyRecord(
  trx: Db,
  who: Importer,
  record: ImportRecord,
): Promise<Outcome | RecordError[]> {
  const match = await matchOf(trx, record);
  if (Array.isArray(match)) return match;
  const artistIds = await artistIdsOf(trx, who, record);
  if (artistIds.length > 0 && typeof artistIds[0] !== 'string') return artistIds as RecordError[];
  const ids = artistIds as string[];
  const fields = {
    title: record.song.title,
    album: record.song.album,
    genre: record.song.genre,
    duration: record.song.duration,
    release_year: record.song.releaseYear,
    isrc: record.song.isrc,
    external_id: record.song.externalId,
  };
  const existing = match.song;
  if (!existing) {
    if (!who.admin && ids.length === 0) return fail('artists', 'Your account is not linked to any artist');
    const row = await songs.insertSong(trx, { id: uuidv7(), ...fields });
    await songs.setSongArtists(trx, row.id, ids);
    await recordCreated(trx, who.ctx, 'song', toSong((await songs.findSongById(trx, row.id))!));
    return 'created';
  }
  if (!who.admin && !existing.artist_ids.some((id) => who.own.includes(id))) {
    return fail(
      existing.isrc === record.song.isrc ? 'isrc' : 'externalId',
      'The song with it is not one of yours',
    );
  }
  const patch: songs.SongUpdate = {};
  for (const [key, value] of Object.entries(fields) as Array<[keyof typeof fields, string | number | null]>) {
    if (existing[key] !== value) (patch as Record<string, unknown>)[key] = value;
  }
  const newArtists = ids.join() !== existing.artist_ids.join();
  if (Object.keys(patch).length === 0 && !newArtists) return 'unchanged';
  await songs.updateSong(trx, existing.id, patch);
  if (newArtists) await songs.setSongArtists(trx, existing.id, ids);
  const after = toSong((await songs.findSongById(trx, existing.id))!);
  await recordAudit(trx, who.ctx, {
    action: 'song.updated',
    target: { type: 'song', id: existing.id },
    changes: changesOf(toSong(existing), after, AUDITED_FIELDS.song),
    record: after,
  });
  return 'updated';
}
