import { createOpenApiDocument, operations } from '@music/api-router';

/**
 * The `/v1` OpenAPI document as the tests read it (plain JSON, as served), with lookups, and the
 * contract's statements about it written out here rather than derived the way the document code
 * derives them: a test comparing the two fails when the derivation goes wrong.
 */
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON.
export type Json = any;
export const doc: Json = JSON.parse(JSON.stringify(createOpenApiDocument()));

/**
 * A response as a reader of the operation sees it: a reference into `components.responses`
 * replaced by a copy of that component, the `description` beside the reference (the
 * operation's own wording) winning. A reference to no component is left as it is, for the
 * assertions to trip on.
 */
export function resolveResponse(response: Json): Json {
  const { $ref: ref, ...beside } = response;
  if (typeof ref !== 'string') return response;
  const component = doc.components.responses?.[ref.replace('#/components/responses/', '')];
  return component && ref.startsWith('#/components/responses/')
    ? { ...structuredClone(component), ...beside }
    : response;
}

/**
 * The paths as a reader sees them: every operation's responses resolved (resolveResponse).
 * The assertions below read this; `doc` is the document as served, references and all.
 */
const resolvedPaths: Json = Object.fromEntries(
  Object.entries(structuredClone(doc.paths) as Json).map(([path, item]) => [
    path,
    Object.fromEntries(
      Object.entries(item as Json).map(([method, op]: [string, Json]) => [
        method,
        {
          ...op,
          responses: Object.fromEntries(
            Object.entries(op.responses).map(([status, response]) => [status, resolveResponse(response)]),
          ),
        },
      ]),
    ),
  ]),
);

/** Every operation of the document, procedures and service routes alike, responses resolved. */
export const all: Array<{ key: string; path: string; method: string; op: Json }> = Object.entries(
  resolvedPaths,
).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, op]) => ({
    key: `${method.toUpperCase()} ${path}`,
    path,
    method,
    op,
  })),
);
export const procedures = operations.flatMap(({ route, isPublic, traits }) =>
  route
    ? [
        {
          route,
          isPublic,
          keyAccess: traits.keyAccess,
          key: `${route.method} ${route.path}`,
          op: at(route.method, route.path),
        },
      ]
    : [],
);
export const SERVICE = ['GET /health', 'GET /health/live', 'GET /openapi.json', 'GET /docs'];

/** An operation, its responses resolved (resolveResponse). */
export function at(method: string, path: string): Json {
  return resolvedPaths[path]?.[method.toLowerCase()];
}
export const success = (op: Json) => Object.keys(op.responses).find((s) => s.startsWith('2'))!;
export const headerNames = (response: Json) => Object.keys(response.headers ?? {});
export const params = (op: Json) =>
  (op.parameters ?? []).map((p: Json) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p));
export const hasParam = (op: Json, name: string) => params(op).some((p: Json) => p.name === name);

export const CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'GONE',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_FAILED',
  'TOO_MANY_REQUESTS',
  'INTERNAL_SERVER_ERROR',
  'SERVICE_UNAVAILABLE',
];
export const IDEMPOTENT = [
  'POST /users',
  'POST /artists',
  'POST /songs',
  'POST /playlists',
  'POST /playlists/{playlistId}/songs',
];
export const SINGLE = [
  '/users/{userId}',
  '/artists/{artistId}',
  '/songs/{songId}',
  '/playlists/{playlistId}',
];
export const IF_MATCH = [
  ...SINGLE.flatMap((p) => [`PUT ${p}`, `PATCH ${p}`, `DELETE ${p}`]).filter((k) => at(...split(k))),
  'POST /playlists/{playlistId}/songs',
  'DELETE /playlists/{playlistId}/songs/{songId}',
];
export const ETAGGED = [
  ...SINGLE.flatMap((p) => [`GET ${p}`, `PUT ${p}`, `PATCH ${p}`]).filter((k) => at(...split(k))),
  ...['/users', '/artists', '/songs', '/playlists'].map((p) => `POST ${p}`),
  'GET /openapi.json',
];
export const LISTS = [
  'GET /users',
  'GET /profiles',
  'GET /artists',
  'GET /artists/{artistId}/songs',
  'GET /songs',
  'GET /genres',
  'GET /playlists',
  'GET /playlists/{playlistId}/songs',
];
export const BODIES: Record<string, string> = {
  'POST /auth/login': 'LoginRequest',
  'POST /users': 'UserCreate',
  'PUT /users/{userId}': 'UserUpdate',
  'PUT /users/{userId}/role': 'UserRoleUpdate',
  'POST /artists': 'ArtistCreate',
  'POST /songs': 'SongCreate',
  'PATCH /songs/{songId}': 'SongPatch',
  'POST /playlists': 'PlaylistCreate',
  'PUT /playlists/{playlistId}': 'PlaylistUpdate',
  'POST /playlists/{playlistId}/songs': 'PlaylistSongAdd',
};
/** A schema of the document, its references pointed at the document (registered as `doc`). */
export function schemaIn(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
}
export function split(key: string): [string, string] {
  const [method, path] = key.split(' ');
  return [method!, path!];
}
