import { ERROR_CODES, MAX_FIELD_ERRORS, MAX_MESSAGE_LENGTH } from '../error-codes';

/** The document walked as plain JSON: the generator's types stop at its own output. */
export type Json = Record<string, unknown>;

/**
 * Response headers, named by their HTTP names: referenced from every response that carries them,
 * so a client generator reads one definition of each. `required` means "always sent" (the
 * response checker of the HTTP suites holds the server to it); the others appear when they apply.
 */
export const headerComponents: Record<string, Json> = {
  'X-Request-Id': {
    description:
      'Echoes a valid incoming `X-Request-Id`, or a generated one: quote it when reporting a problem.',
    required: true,
    schema: { type: 'string', maxLength: 128, example: '0197f1c2-5b1e-7c3a-9d2e-3f4a5b6c7d8e' },
  },
  ETag: {
    description:
      'Entity tag of the representation in this answer: it changes whenever anything in it ' +
      'changes. A record’s is strong: send it back as `If-None-Match` to revalidate (304) or as ' +
      '`If-Match` to write safely (412). A list’s is weak (`W/"…"`): for `If-None-Match` only.',
    required: true,
    schema: {
      type: 'string',
      maxLength: 66,
      pattern: '^(W/)?"[\\x21\\x23-\\x7e]*"$',
      example: '"q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"',
    },
  },
  'Content-Disposition': {
    description: 'A file to save, and the name to save it as.',
    required: true,
    schema: { type: 'string', maxLength: 100, example: 'attachment; filename="songs-2026-12-02.csv"' },
  },
  Location: {
    description: 'Path of the new resource (its `GET` operation).',
    required: true,
    schema: {
      type: 'string',
      format: 'uri-reference',
      maxLength: 100,
      example: '/v1/songs/0197f1c2-5b1e-7c3a-9d2e-3f4a5b6c7d8e',
    },
  },
  Link: {
    description:
      'RFC 8288 pagination links: `rel="first"` and `rel="last"` always, `rel="prev"` and `rel="next"` ' +
      'where that page exists. Each is a full URL keeping the request’s other query parameters. ' +
      'In cursor mode: `rel="first"` (`cursor=`) always and `rel="next"` (the next cursor) while one follows.',
    required: true,
    schema: {
      type: 'string',
      maxLength: 8192,
      example:
        '<https://api.example.com/v1/songs?page=1&limit=20>; rel="first", <https://api.example.com/v1/songs?page=2&limit=20>; rel="next", <https://api.example.com/v1/songs?page=7&limit=20>; rel="last"',
    },
  },
  'RateLimit-Limit': {
    description:
      'Requests the caller may make per minute (a signed-in user, or the client address when ' +
      'anonymous). Absent when budgets are turned off.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2_147_483_647, example: 1200 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647, example: 1187 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window ends and the budget is whole again.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 60, example: 42 },
  },
  'RateLimit-Policy': {
    description: 'The budget as `<limit>;w=60`: so many requests per 60-second window.',
    schema: { type: 'string', maxLength: 32, pattern: '^[0-9]+;w=60$', example: '1200;w=60' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400, example: 30 },
  },
  'WWW-Authenticate': {
    description:
      'RFC 6750 challenge: `Bearer realm="music"`, plus `error="invalid_token"` when a token was ' +
      'sent and refused (expired, revoked, forged): sign in or refresh, then retry.',
    required: true,
    schema: { type: 'string', maxLength: 200, example: 'Bearer realm="music", error="invalid_token"' },
  },
  /** `WWW-Authenticate` on a 403: only an API key's refusal carries it, so it is not required. */
  InsufficientScope: {
    description:
      'On the 403 of an API key only (RFC 6750): `Bearer realm="music", error="insufficient_scope", ' +
      'scope="…"` naming the scope the operation needs, without `scope` where no key may call it. A ' +
      '403 for a role or an ownership has none.',
    schema: {
      type: 'string',
      maxLength: 200,
      example: 'Bearer realm="music", error="insufficient_scope", scope="catalogue:write"',
    },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`: ' +
      'nothing was done again.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Access-Control-Allow-Origin': {
    description:
      'Sent only to browsers on an origin the operator allowed (`CORS_ORIGINS`): that origin. ' +
      'Cookies are never allowed.',
    schema: { type: 'string', maxLength: 2048, example: 'https://console.example.com' },
  },
};

/** Request headers, as reusable parameters. */
export const parameterComponents: Record<string, Json> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: 1 to 255 printable ASCII characters (a fresh UUID per intended change). ' +
      'A repeat by the same caller within 24 hours, with the same method, path and body, changes ' +
      'nothing and gets the first successful answer again (status, body, `Location`, `ETag`) with ' +
      '`Idempotent-Replayed: true`. A malformed key, or the same key with another path or body, is ' +
      '422 (`field: "Idempotency-Key"`); a repeat while the first is still running is 409.',
    // Printable ASCII (space included), not only spaces.
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7e]*[\\x21-\\x7e][\\x20-\\x7e]*$',
    },
    example: '5f0c6c4e-3a52-4d8e-9a43-1f2b7c1d9e10',
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and ' +
      'nothing changes. Without it the write happens whatever changed meanwhile.',
    schema: { type: 'string', maxLength: 2048 },
    example: '"q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"',
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).',
    schema: { type: 'string', maxLength: 2048 },
    example: '"q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"',
  },
};

const ERROR_MESSAGE = {
  type: 'string',
  maxLength: MAX_MESSAGE_LENGTH,
  description: 'For humans; branch on `code`',
};

/**
 * `ApiError` and `ValidationError` are told apart by `code`: no value is in both, so a generated
 * union narrows (`if (e.code === 'VALIDATION_FAILED') e.errors`). `ApiError`, not `Error`: a
 * generated TypeScript client declares a type of each schema's name, and one named `Error`
 * shadows the language's own in every file that imports it.
 */
export const errorSchemas: Record<string, Json> = {
  ApiError: {
    type: 'object',
    description:
      'Every error but a validation failure. `code` is stable; `message` may change. A 422 is a ' +
      '`ValidationError` instead.',
    required: ['code', 'message'],
    properties: {
      code: {
        type: 'string',
        enum: Object.keys(ERROR_CODES).filter((code) => code !== 'VALIDATION_FAILED'),
        description: 'Stable code to branch on; the HTTP status follows from it',
      },
      message: ERROR_MESSAGE,
    },
    additionalProperties: false,
  },
  // Kept as an alias, referenced by no response. Documents before this one named the error schema
  // `Error`, and clients generated from them name it in their own code
  // (`components['schemas']['Error']` with openapi-typescript, `import type { Error }` with
  // hey-api or orval). The wire does not change, but such a client regenerating from a document
  // without `Error` would no longer compile, and a minor version only adds. It goes in 2.0.
  Error: {
    $ref: '#/components/schemas/ApiError',
    description: 'The same as `ApiError`: kept for clients generated from version 1.1.',
  },
  ValidationError: {
    type: 'object',
    description: 'A 422: the body (or the `Idempotency-Key`) failed validation; `errors` names each field.',
    required: ['code', 'message', 'errors'],
    properties: {
      code: { type: 'string', enum: ['VALIDATION_FAILED'] },
      message: ERROR_MESSAGE,
      errors: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_FIELD_ERRORS,
        description: `The fields that failed, the first ${MAX_FIELD_ERRORS} at most`,
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: {
            field: {
              type: 'string',
              maxLength: 200,
              description: 'Dotted path of the body field (e.g. `artistIds.1`), or `Idempotency-Key`',
            },
            message: { type: 'string', maxLength: MAX_MESSAGE_LENGTH },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
  Health: {
    type: 'object',
    required: ['status', 'database'],
    properties: {
      status: { type: 'string', enum: ['ok', 'degraded', 'draining'] },
      database: { type: 'string', enum: ['ok', 'unavailable'] },
    },
    additionalProperties: false,
  },
  Liveness: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['ok'] } },
    additionalProperties: false,
  },
};

export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The headers of one response, each a reference to its component. */
export function headersOf(names: readonly string[]): Json {
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

/** On every answer: the request id, and the CORS origin for allowed browsers. */
export const ALWAYS = ['X-Request-Id', 'Access-Control-Allow-Origin'] as const;
/** On every answer of an operation under a request budget. */
export const BUDGET = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
] as const;
