import {
  artists,
  type ChangeAudience,
  changeEvents,
  type Db,
  playlists,
  songs,
  users,
  uuidv7,
} from '@music/db';
import { toArtist } from './modules/artists/artists.schema';
import { toPlaylist } from './modules/playlists/playlists.schema';
import { toSong } from './modules/songs/songs.schema';
import { toUser } from './modules/users/users.schema';

/**
 * The change feed's side of every write: what changed, as events in the outbox
 * (`change_events`), inserted in the write's own transaction. The feed (`GET /events`) and
 * everything else that follows changes read them from there, in commit order.
 *
 * An event names one record and carries it as its own `GET` shows it: after the write, or, for
 * a deletion, as it was just before. A write that changes other records as a consequence names
 * them too (a deleted song leaves the playlists that held it: `playlist.updated` for each).
 */

export const CHANGE_RESOURCES = ['song', 'artist', 'playlist', 'user'] as const;
export type ChangeResource = (typeof CHANGE_RESOURCES)[number];
const VERBS = ['created', 'updated', 'deleted'] as const;
export type ChangeType = `${ChangeResource}.${(typeof VERBS)[number]}`;

/** Every event type, in a stable order. */
export const CHANGE_TYPES: readonly ChangeType[] = CHANGE_RESOURCES.flatMap((resource) =>
  VERBS.map((verb): ChangeType => `${resource}.${verb}`),
);

export interface ChangeInput {
  type: ChangeType;
  id: string;
  /**
   * The record as its `GET` shows it (after the write; before it, for a deletion). Read in the
   * transaction when not given (a deletion must give it: the row is gone).
   */
  record?: object | undefined;
  /** A playlist that was public before this write (made private by it: others learn only that). */
  wasPublic?: boolean | undefined;
}

const readers: Record<ChangeResource, (trx: Db, id: string) => Promise<object | undefined>> = {
  song: async (trx, id) => {
    const row = await songs.findSongById(trx, id);
    return row && toSong(row);
  },
  artist: async (trx, id) => {
    const row = await artists.findArtistById(trx, id);
    return row && toArtist(row);
  },
  playlist: async (trx, id) => {
    const row = await playlists.findPlaylistById(trx, id);
    return row && toPlaylist(row);
  },
  user: async (trx, id) => {
    const row = await users.findUserById(trx, id);
    return row && toUser(row);
  },
};

const resourceOf = (type: ChangeType) => type.slice(0, type.indexOf('.')) as ChangeResource;

/**
 * Who may read an event: songs and artists are everyone's catalogue; users are for admins; a
 * playlist's events are its owner's (and admins'), and everyone's while it is public. A playlist
 * made private is told to the others who could see it as `{id, isPublic: false}` only.
 */
function audienceOf(
  resource: ChangeResource,
  record: Record<string, unknown>,
  change: ChangeInput,
): { audience: ChangeAudience; ownerId: string | null; redacted: unknown } {
  if (resource === 'user') return { audience: 'admins', ownerId: null, redacted: null };
  if (resource !== 'playlist') return { audience: 'everyone', ownerId: null, redacted: null };
  if (record.isPublic === true) return { audience: 'everyone', ownerId: null, redacted: null };
  const ownerId = typeof record.userId === 'string' ? record.userId : null;
  const redacted = change.wasPublic === true ? { id: change.id, isPublic: false } : null;
  return { audience: 'owner', ownerId, redacted };
}

/** Inserts the events of `changes` in `trx`, in order; a record that no longer exists is skipped. */
export async function publishChanges(trx: Db, changes: readonly ChangeInput[]): Promise<void> {
  const rows: changeEvents.NewChange[] = [];
  for (const change of changes) {
    const resource = resourceOf(change.type);
    const record = (change.record ?? (await readers[resource](trx, change.id))) as
      | Record<string, unknown>
      | undefined;
    if (record === undefined) continue;
    rows.push({
      id: uuidv7(),
      type: change.type,
      resourceType: resource,
      resourceId: change.id,
      data: record,
      ...audienceOf(resource, record, change),
    });
  }
  await changeEvents.insertChanges(trx, rows);
}

/**
 * The types a list of names stands for: exact types, and `song.*`-style patterns for every type
 * of a resource; or the first name that is neither.
 */
export function typesNamed(names: readonly string[]): { types: ChangeType[] } | { unknown: string } {
  const wanted = new Set<ChangeType>();
  for (const name of names) {
    const [resource, verb] = name.split('.');
    if (verb === '*' && (CHANGE_RESOURCES as readonly string[]).includes(resource ?? '')) {
      for (const type of CHANGE_TYPES) if (type.startsWith(`${resource}.`)) wanted.add(type);
    } else if ((CHANGE_TYPES as readonly string[]).includes(name)) {
      wanted.add(name as ChangeType);
    } else {
      return { unknown: name };
    }
  }
  return { types: [...wanted] };
}

/** What a `types` error says about an unknown name. */
export const unknownTypeMessage = (name: string) =>
  `Unknown event type ${JSON.stringify(name.slice(0, 100))}: use ${CHANGE_TYPES.join(', ')}, or song.*, artist.*, playlist.*, user.*`;
