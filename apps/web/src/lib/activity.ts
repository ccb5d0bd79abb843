import type { RouterInputs, RouterOutputs } from '@music/api-router/types';
import { param, type QueryValues } from '@/lib/url-state';

/**
 * The activity log (`auditEvents.list`) as the console shows it: its filters kept in the address,
 * each event's action, target and changes in words.
 */

export type AuditEvent = RouterOutputs['auditEvents']['list']['data'][number];
export type AuditAction = AuditEvent['action'];
export type TargetType = AuditEvent['target']['type'];
export type ActivityInput = RouterInputs['auditEvents']['list'];

/** Each kind of record in words. Every type the API knows must be here (checked by type). */
export const TARGET_WORDS: Record<TargetType, string> = {
  user: 'User',
  artist: 'Artist',
  song: 'Song',
  playlist: 'Playlist',
  api_key: 'API key',
  webhook: 'Webhook',
};

/** Each action in words. Every action the API knows must be here (checked by type). */
export const ACTION_WORDS: Record<AuditAction, string> = {
  'user.created': 'User created',
  'user.updated': 'User updated',
  'user.role_changed': 'Role changed',
  'user.password_changed': 'Password changed',
  'user.password_reset': 'Password reset',
  'user.reset_link_created': 'Reset link made',
  'user.deleted': 'User deleted',
  'artist.created': 'Artist created',
  'artist.updated': 'Artist updated',
  'artist.deleted': 'Artist deleted',
  'artist.song_linked': 'Song linked to artist',
  'artist.song_unlinked': 'Song unlinked from artist',
  'song.created': 'Song created',
  'song.updated': 'Song updated',
  'song.deleted': 'Song deleted',
  'playlist.created': 'Playlist created',
  'playlist.updated': 'Playlist updated',
  'playlist.songs_reordered': 'Playlist reordered',
  'playlist.song_added': 'Song added to playlist',
  'playlist.song_removed': 'Song removed from playlist',
  'playlist.deleted': 'Playlist deleted',
  'api_key.created': 'API key made',
  'api_key.deleted': 'API key revoked',
  'webhook.created': 'Webhook made',
  'webhook.updated': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
};

export const ACTIONS = Object.keys(ACTION_WORDS) as AuditAction[];
export const TARGET_TYPES = Object.keys(TARGET_WORDS) as TargetType[];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether `text` is an id as records carry them (what the filters by id take). */
export const isId = (text: string) => UUID.test(text);

/** The filters in the address: /activity?user=…&type=…&id=…&action=… (all optional). */
export const activityQuery = {
  user: param.text({ valid: (value) => value === '' || isId(value) }),
  type: param.oneOf<'' | TargetType>(['', ...TARGET_TYPES], ''),
  id: param.text({ valid: (value) => value === '' || isId(value) }),
  action: param.oneOf<'' | AuditAction>(['', ...ACTIONS], ''),
};
export type ActivityView = QueryValues<typeof activityQuery>;

/** How many events a page of the log shows before "Load more". */
export const ACTIVITY_PAGE = 25;

/** The input of one page of the log for the filters in `view`, from `cursor` (omitted: the newest). */
export function activityInput(view: ActivityView, cursor?: string): ActivityInput {
  return {
    limit: ACTIVITY_PAGE,
    ...(view.user ? { actorId: view.user } : {}),
    ...(view.type ? { targetType: view.type } : {}),
    ...(view.id ? { targetId: view.id } : {}),
    ...(view.action ? { action: view.action } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

/** The Activity page's address for one record's history (what a record page links to). */
export function historyHref(type: TargetType, id: string): string {
  return `/activity?${new URLSearchParams({ type, id })}`;
}

/**
 * Where the console shows an event's target: the record's own page (songs, artists, playlists),
 * the users list for an account (it has no page of its own), My account's webhooks page for a webhook,
 * nothing for an API key.
 */
export function targetHref(target: AuditEvent['target']): string | null {
  switch (target.type) {
    case 'song':
      return `/songs/${target.id}`;
    case 'artist':
      return `/artists/${target.id}`;
    case 'playlist':
      return `/playlists/${target.id}`;
    case 'user':
      return '/users';
    case 'webhook':
      return '/account/webhooks';
    case 'api_key':
      return null;
  }
}

/** An id, cut to its first 8 characters: enough to tell records apart on screen. */
export const shortId = (id: string) => id.slice(0, 8);

/** A value of a change in words: "—" for none, lists joined, yes/no, anything else as JSON. */
export function valueWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map(valueWords).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** Each field name in words, where it reads better than the API's. */
const FIELD_WORDS: Record<string, string> = {
  userId: 'account',
  artistIds: 'artists',
  songIds: 'songs',
  releaseYear: 'release year',
  isPublic: 'public',
  expiresAt: 'expires',
};

export interface ChangeRow {
  field: string;
  before: string;
  after: string;
}

/** An event's changes as rows of field, before, after; a password's only as "changed". */
export function changeRows(changes: AuditEvent['changes']): ChangeRow[] {
  return Object.entries(changes).map(([field, change]) => {
    const name = FIELD_WORDS[field] ?? field;
    if (change === 'changed') return { field: name, before: '—', after: 'changed' };
    return { field: name, before: valueWords(change.before), after: valueWords(change.after) };
  });
}

/**
 * Who made an event's write, in words: the username (from `names`, '…' while it is asked for),
 * "anonymous" without a user, and "via API key …" when a key made it.
 */
export function actorWords(
  actor: AuditEvent['actor'],
  names: ReadonlyMap<string, string>,
  keyPrefixes: ReadonlyMap<string, string> = new Map(),
): { who: string; via: string | null } {
  const who = actor.userId === null ? 'anonymous' : (names.get(actor.userId) ?? '…');
  const via =
    actor.apiKeyId === null
      ? null
      : `via API key ${keyPrefixes.get(actor.apiKeyId) ?? shortId(actor.apiKeyId)}`;
  return { who, via };
}

/**
 * The prefixes of the keys the log's own "API key made" events name (their `changes.prefix`),
 * by key id: what "via API key …" shows in place of an id where the page holds it.
 */
export function keyPrefixesOf(events: readonly AuditEvent[]): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const event of events) {
    const prefix = event.target.type === 'api_key' ? event.changes.prefix : undefined;
    if (prefix && prefix !== 'changed') {
      const value = prefix.after ?? prefix.before;
      if (typeof value === 'string') prefixes.set(event.target.id, value);
    }
  }
  return prefixes;
}
