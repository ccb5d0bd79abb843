/**
 * What an API key may be granted. A key acts as its owner, within its scopes, never beyond what
 * the owner's role allows at that moment; a signed-in session is not limited by scopes.
 */
export const SCOPES = [
  'catalogue:read',
  'catalogue:write',
  'playlists:read',
  'playlists:write',
  'users:read',
  'users:write',
  'events:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What a request authenticated by an API key carries besides its owner: the key and its scopes. */
export interface ApiKeyGrant {
  id: string;
  scopes: readonly Scope[];
}

const KNOWN: ReadonlySet<string> = new Set(SCOPES);

export function isScope(value: string): value is Scope {
  return KNOWN.has(value);
}

/**
 * What an API key needs to call an operation: a scope; `any` (every key: `GET /auth/me`, which
 * tells a key whose it is, and the operations that take no caller at all, such as signing in,
 * where a key sent along changes nothing); or `session` (no key ever: signing out, making reset
 * links, managing keys).
 */
export type KeyAccess = Scope | 'any' | 'session';

/** Which scopes cover the operations of each tag; a tag not listed is for sessions only. */
const AREA_OF_TAG: Readonly<Record<string, 'catalogue' | 'playlists' | 'users' | 'events'>> = {
  songs: 'catalogue',
  artists: 'catalogue',
  genres: 'catalogue',
  // The finder reads the catalogue (and playlists: public ones only without `playlists:read`).
  search: 'catalogue',
  playlists: 'playlists',
  users: 'users',
  audit: 'events',
  events: 'events',
  // Imports write the catalogue (`catalogue:write`); following one reads it.
  imports: 'catalogue',
};

/**
 * The key access of an operation, from its route: its tag's area, `:read` for a GET and `:write`
 * for the rest, unless the route declares its own (`keyAccess`).
 */
export function keyAccessOf(route: {
  tag: string;
  method: string;
  keyAccess?: KeyAccess | undefined;
}): KeyAccess {
  if (route.keyAccess !== undefined) return route.keyAccess;
  const area = AREA_OF_TAG[route.tag];
  if (area === undefined) return 'session';
  return `${area}:${route.method === 'GET' ? 'read' : 'write'}` as Scope;
}
