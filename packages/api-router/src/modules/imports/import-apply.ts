import { artists, type Db, imports, type SongWithArtists, songs, uuidv7 } from '@music/db';
import { AUDITED_FIELDS, changesOf, recordAudit, recordCreated } from '../../audit';
import type { Context } from '../../context';
import { toArtist } from '../artists/artists.schema';
import { toSong } from '../songs/songs.schema';
import type { ImportRecord, RecordError } from './import-rows';

/**
 * One record of an import, applied in its batch's transaction, as its sender: created, updated
 * (matched by `isrc`, else by `externalId`) or unchanged; or why not, as errors of its line. A
 * record is decided before anything is written, so one that fails writes nothing. An admin's
 * unknown artist names are created; an artist account names only its own artists and changes
 * only its own songs (stricter than the API's song writes: an import cannot name a co-artist the
 * account does not manage).
 *
 * What a batch looks up (its songs by key, its artists by name) is read once for the batch
 * (`lookupsFor`) and kept up to date as its records are applied, so a record sees the ones
 * before it.
 */

export type Outcome = 'created' | 'updated' | 'unchanged';

/** Who the import acts as, read when its run starts (the role now). */
export interface Importer {
  ctx: Context;
  admin: boolean;
  /** The artists an artist account manages. */
  own: string[];
}

export interface Lookups {
  byIsrc: Map<string, SongWithArtists>;
  byExternalId: Map<string, SongWithArtists>;
  artistsByName: Map<string, Array<{ id: string }>>;
}

/** The songs and artists a batch of records names, read in three statements. */
export async function lookupsFor(trx: Db, records: readonly ImportRecord[]): Promise<Lookups> {
  const isrcs = records.flatMap((r) => (r.song.isrc ? [r.song.isrc] : []));
  const externalIds = records.flatMap((r) => (r.song.externalId ? [r.song.externalId] : []));
  const names = [
    ...new Set(records.flatMap((r) => (r.artists && 'names' in r.artists ? r.artists.names : []))),
  ];
  const [keyed, named] = await Promise.all([
    imports.songsByKeys(trx, isrcs, externalIds),
    imports.artistsNamed(trx, names),
  ]);
  const byIsrc = new Map<string, SongWithArtists>();
  const byExternalId = new Map<string, SongWithArtists>();
  for (const song of keyed) {
    if (song.isrc) byIsrc.set(song.isrc, song);
    if (song.external_id) byExternalId.set(song.external_id, song);
  }
  return { byIsrc, byExternalId, artistsByName: named };
}

const fail = (field: string, message: string): RecordError[] => [{ field, message }];

/** The record's artists: ids, and names to create (an admin's), or why not. Writes nothing. */
async function artistsOf(
  trx: Db,
  who: Importer,
  lookups: Lookups,
  record: ImportRecord,
): Promise<{ ids: Array<string | { create: string }> } | RecordError[]> {
  const given = record.artists;
  if (given === undefined) return { ids: who.admin ? [] : who.own };
  if ('ids' in given) {
    const found = await artists.findExistingArtistIds(trx, given.ids);
    const missing = given.ids.find((id) => !found.has(id));
    if (missing) return fail('artistIds', `No artist has the id ${missing}`);
    if (!who.admin && given.ids.some((id) => !who.own.includes(id))) {
      return fail('artistIds', 'An artist account imports songs of its own artists only');
    }
    return { ids: given.ids };
  }
  const ids: Array<string | { create: string }> = [];
  for (const name of given.names) {
    const matches = lookups.artistsByName.get(name) ?? [];
    if (!who.admin) {
      const mine = matches.filter((a) => who.own.includes(a.id));
      if (mine.length !== 1) return fail('artists', `No artist of yours is named ${JSON.stringify(name)}`);
      ids.push(mine[0]!.id);
    } else if (matches.length > 1) {
      return fail(
        'artists',
        `${matches.length} artists are named ${JSON.stringify(name)}: give artistIds instead`,
      );
    } else ids.push(matches[0]?.id ?? { create: name });
  }
  if (new Set(given.names).size !== given.names.length) return fail('artists', 'An artist is named twice');
  return { ids };
}

/** The song the record updates: the one with its ISRC, else the one with its externalId. */
function matchOf(
  lookups: Lookups,
  record: ImportRecord,
): { song: SongWithArtists | undefined } | RecordError[] {
  const { isrc, externalId } = record.song;
  const byIsrc = isrc ? lookups.byIsrc.get(isrc) : undefined;
  const byExternal = externalId ? lookups.byExternalId.get(externalId) : undefined;
  if (byIsrc && byExternal && byIsrc.id !== byExternal.id) {
    return fail('externalId', 'Another song than the one with this isrc has this externalId');
  }
  return { song: byIsrc ?? byExternal };
}

/** Creates the artists a record names that do not exist yet (an admin's import). */
async function artistIdsMade(
  trx: Db,
  who: Importer,
  lookups: Lookups,
  ids: Array<string | { create: string }>,
) {
  const made: string[] = [];
  for (const id of ids) {
    if (typeof id === 'string') {
      made.push(id);
      continue;
    }
    const row = await artists.insertArtist(trx, { id: uuidv7(), name: id.create, bio: null, user_id: null });
    await recordCreated(trx, who.ctx, 'artist', toArtist(row));
    lookups.artistsByName.set(id.create, [{ id: row.id }]);
    made.push(row.id);
  }
  return made;
}

export async function applyRecord(
  trx: Db,
  who: Importer,
  lookups: Lookups,
  record: ImportRecord,
): Promise<Outcome | RecordError[]> {
  const match = matchOf(lookups, record);
  if (Array.isArray(match)) return match;
  const resolved = await artistsOf(trx, who, lookups, record);
  if (Array.isArray(resolved)) return resolved;
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
  if (!existing && !who.admin && resolved.ids.length === 0) {
    return fail('artists', 'Your account is not linked to any artist');
  }
  if (existing && !who.admin && !existing.artist_ids.some((id) => who.own.includes(id))) {
    return fail(
      existing.isrc === record.song.isrc ? 'isrc' : 'externalId',
      'The song with it is not one of yours',
    );
  }
  const patch: songs.SongUpdate = {};
  if (existing) {
    for (const [key, value] of Object.entries(fields) as Array<
      [keyof typeof fields, string | number | null]
    >) {
      if (existing[key] !== value) (patch as Record<string, unknown>)[key] = value;
    }
    const sameArtists =
      resolved.ids.map((id) => (typeof id === 'string' ? id : '')).join() === existing.artist_ids.join();
    if (Object.keys(patch).length === 0 && sameArtists) return 'unchanged';
  }
  // Decided: from here on the record is written.
  const ids = await artistIdsMade(trx, who, lookups, resolved.ids);
  if (!existing) {
    const row = await songs.insertSong(trx, { id: uuidv7(), ...fields });
    await songs.setSongArtists(trx, row.id, ids, { fresh: true });
    const created: SongWithArtists = { ...row, artist_ids: ids };
    remember(lookups, undefined, created);
    await recordCreated(trx, who.ctx, 'song', toSong(created));
    return 'created';
  }
  // Also when only the artists change: the song's updatedAt moves with its artistIds (as a PATCH).
  const row = await songs.updateSong(trx, existing.id, patch);
  if (ids.join() !== existing.artist_ids.join()) await songs.setSongArtists(trx, existing.id, ids);
  const after: SongWithArtists = { ...existing, ...(row ?? {}), artist_ids: ids };
  remember(lookups, existing, after);
  await recordAudit(trx, who.ctx, {
    action: 'song.updated',
    target: { type: 'song', id: existing.id },
    changes: changesOf(toSong(existing), toSong(after), AUDITED_FIELDS.song),
    record: toSong(after),
  });
  return 'updated';
}

function remember(lookups: Lookups, before: SongWithArtists | undefined, song: SongWithArtists) {
  if (before?.isrc) lookups.byIsrc.delete(before.isrc);
  if (before?.external_id) lookups.byExternalId.delete(before.external_id);
  if (song.isrc) lookups.byIsrc.set(song.isrc, song);
  if (song.external_id) lookups.byExternalId.set(song.external_id, song);
}
