/**
 * Generated from the OpenAPI document the API serves at GET /v1/openapi.json. Do not edit:
 * regenerate with `pnpm --filter @music/sdk types:update`.
 */

/** The operations that take an `Idempotency-Key`: the client sends one on each call of these. */
export const IDEMPOTENT_ROUTES: readonly string[] = [
  'POST /artists',
  'POST /playlists',
  'POST /playlists/{playlistId}/songs',
  'POST /songs',
  'POST /users',
];
