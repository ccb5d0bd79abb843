import { type AuditChange, auditEvents, type Db, uuidv7 } from '@music/db';
import { type ChangeInput, type ChangeType, publishChanges } from './changes';
import type { Context } from './context';

/**
 * The audit trail: every write records one event, in its own transaction (`trx`), so the event
 * exists exactly when the write committed. A write that changes nothing records nothing: the
 * services call `recordAudit` only where they write. The same call puts the write's events in the
 * change feed's outbox (./changes.ts), in the same transaction.
 */

/** What a record is, as an event's `target.type`. */
export const AUDIT_TARGET_TYPES = ['user', 'artist', 'song', 'playlist', 'api_key', 'webhook'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/**
 * Every action an event may name, `<target type>.<verb>`. Where one operation may change several
 * things, the event names the narrowest action that covers every change it made: a user update
 * that changes only the role is `user.role_changed`, only the password `user.password_changed`,
 * anything else `user.updated`; a playlist replace that only reorders its songs is
 * `playlist.songs_reordered`, anything else `playlist.updated`.
 */
export const AUDIT_ACTIONS = [
  'user.created',
  'user.updated',
  'user.role_changed',
  'user.password_changed',
  'user.password_reset',
  'user.reset_link_created',
  'user.deleted',
  'artist.created',
  'artist.updated',
  'artist.deleted',
  'artist.song_linked',
  'artist.song_unlinked',
  'song.created',
  'song.updated',
  'song.deleted',
  'playlist.created',
  'playlist.updated',
  'playlist.songs_reordered',
  'playlist.song_added',
  'playlist.song_removed',
  'playlist.deleted',
  'api_key.created',
  'api_key.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A field's change: its value before and after, or `changed` for a password (never its value). */
export type AuditChanges = Record<string, AuditChange>;

/** The fields of each record an event's `changes` names (as the API shows them; no timestamps). */
export const AUDITED_FIELDS = {
  user: ['username', 'email', 'role'],
  artist: ['name', 'bio', 'userId'],
  song: ['title', 'album', 'genre', 'duration', 'releaseYear', 'isrc', 'externalId', 'artistIds'],
  playlist: ['userId', 'name', 'description', 'isPublic', 'songIds'],
  // Its owner, name, scopes and expiry; never the token (it is not stored) nor its hash.
  api_key: ['userId', 'name', 'scopes', 'prefix', 'expiresAt'],
  // Never its secret.
  webhook: ['userId', 'url', 'events', 'description', 'enabled'],
} as const;

/** How a password's change is recorded. */
export const PASSWORD_CHANGED = 'changed' as const;

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * The `fields` whose values differ between `before` and `after` (records as the API shows them),
 * each with both values. `before` null: a creation (every field from null); `after` null: a
 * deletion (every field to null).
 */
export function changesOf<T extends object>(
  before: T | null,
  after: T | null,
  fields: readonly (keyof T & string)[],
): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of fields) {
    const was = before === null ? null : (before[field] ?? null);
    const is = after === null ? null : (after[field] ?? null);
    if (!same(was, is)) changes[field] = { before: was, after: is };
  }
  return changes;
}

export interface AuditEventInput {
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  changes?: AuditChanges;
  /**
   * The user the event names as its actor, where the request has no caller but acts for one (a
   * password reset confirmed with a mailed link names the account's user). Default: the caller,
   * or null for an anonymous request.
   */
  actorUserId?: string | null;
  /**
   * The target as its `GET` shows it, after the write (before it, for a deletion): the change
   * feed's event carries it. Read in the transaction when not given (a deletion must give it).
   */
  record?: object | undefined;
  /** Other records the write changed as a consequence (a deleted song's playlists), for the feed. */
  alsoChanged?: readonly ChangeInput[] | undefined;
}

/**
 * The change-feed event of each action, where it has one: the record it names is the target,
 * or, for a song linked to or unlinked from an artist, the song (its `artistIds` changed).
 * Reset links, API keys and webhooks are not catalogue changes.
 */
const FEED_OF_ACTION: Record<AuditAction, { type: ChangeType; of?: 'songId' } | null> = {
  'user.created': { type: 'user.created' },
  'user.updated': { type: 'user.updated' },
  'user.role_changed': { type: 'user.updated' },
  'user.password_changed': { type: 'user.updated' },
  'user.password_reset': { type: 'user.updated' },
  'user.reset_link_created': null,
  'user.deleted': { type: 'user.deleted' },
  'artist.created': { type: 'artist.created' },
  'artist.updated': { type: 'artist.updated' },
  'artist.deleted': { type: 'artist.deleted' },
  'artist.song_linked': { type: 'song.updated', of: 'songId' },
  'artist.song_unlinked': { type: 'song.updated', of: 'songId' },
  'song.created': { type: 'song.created' },
  'song.updated': { type: 'song.updated' },
  'song.deleted': { type: 'song.deleted' },
  'playlist.created': { type: 'playlist.created' },
  'playlist.updated': { type: 'playlist.updated' },
  'playlist.songs_reordered': { type: 'playlist.updated' },
  'playlist.song_added': { type: 'playlist.updated' },
  'playlist.song_removed': { type: 'playlist.updated' },
  'playlist.deleted': { type: 'playlist.deleted' },
  'api_key.created': null,
  'api_key.deleted': null,
  'webhook.created': null,
  'webhook.updated': null,
  'webhook.deleted': null,
};

/** The feed's events of one audited write: its own, then the ones it caused. */
function changesOfEvent(event: AuditEventInput): ChangeInput[] {
  const feed = FEED_OF_ACTION[event.action];
  const changes: ChangeInput[] = [];
  if (feed?.of === 'songId') {
    const songId = event.changes?.songId;
    const id = songId && songId !== PASSWORD_CHANGED ? (songId.after ?? songId.before) : undefined;
    if (typeof id === 'string') changes.push({ type: feed.type, id });
  } else if (feed) {
    const isPublic = event.changes?.isPublic;
    changes.push({
      type: feed.type,
      id: event.target.id,
      record: event.record,
      wasPublic: isPublic !== undefined && isPublic !== PASSWORD_CHANGED && isPublic.before === true,
    });
  }
  return [...changes, ...(event.alsoChanged ?? [])];
}

/** The catalogue's records whose creation is recorded the same way (a user's adds its password). */
type Created = 'artist' | 'song' | 'playlist';

/**
 * Records the creation of `record` (as its `GET` shows it) in `trx`: every audited field from
 * null, and the feed's `*.created` event carrying it.
 */
export function recordCreated(
  trx: Db,
  ctx: Context,
  type: Created,
  record: { id: string; [field: string]: unknown },
): Promise<void> {
  return recordAudit(trx, ctx, {
    action: `${type}.created`,
    target: { type, id: record.id },
    changes: changesOf<Record<string, unknown>>(null, record, AUDITED_FIELDS[type]),
    record,
  });
}

/**
 * Records one event in `trx`, the transaction of the write it describes: the caller (user and
 * API key), the request id and the client address come from the request's context.
 */
export async function recordAudit(trx: Db, ctx: Context, event: AuditEventInput): Promise<void> {
  await auditEvents.insertAuditEvent(trx, {
    id: uuidv7(),
    actorUserId: event.actorUserId !== undefined ? event.actorUserId : (ctx.actor?.user.id ?? null),
    actorApiKeyId: ctx.actor?.apiKey?.id ?? null,
    action: event.action,
    targetType: event.target.type,
    targetId: event.target.id,
    changes: event.changes ?? {},
    requestId: ctx.requestId,
    address: ctx.clientAddress,
  });
  await publishChanges(trx, changesOfEvent(event));
}
