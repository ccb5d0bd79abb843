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
