import { ERROR_CODES, type ErrorCode } from '../error-codes';
import { ALWAYS, BUDGET, headerRef, headersOf, type Json, schemaRef } from './components';

/** The component name of each error's response (`#/components/responses/NotFound`). */
const ERROR_NAMES: Record<ErrorCode, string> = {
  BAD_REQUEST: 'BadRequest',
  UNAUTHORIZED: 'Unauthorized',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'NotFound',
  METHOD_NOT_ALLOWED: 'MethodNotAllowed',
  CONFLICT: 'Conflict',
  GONE: 'Gone',
  PRECONDITION_FAILED: 'PreconditionFailed',
  PAYLOAD_TOO_LARGE: 'PayloadTooLarge',
  VALIDATION_FAILED: 'ValidationFailed',
  TOO_MANY_REQUESTS: 'TooManyRequests',
  INTERNAL_SERVER_ERROR: 'InternalServerError',
  SERVICE_UNAVAILABLE: 'ServiceUnavailable',
};

/**
 * What each error means in general: its component's description. An operation whose wording
 * differs (./responses.ts) says so in a `description` beside its reference, which replaces this one.
 */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  BAD_REQUEST:
    'Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); ' +
    '`sort` names an unknown field or one field twice; the body is not a JSON object (or not ' +
    '`application/json`); `If-Match` or `If-None-Match` is not `*` or a list of entity tags',
  UNAUTHORIZED: 'Token missing, malformed, expired or revoked: sign in (or refresh) and retry',
  FORBIDDEN: 'Signed in, but not allowed (role or ownership)',
  NOT_FOUND: 'No such resource (or a malformed id)',
  METHOD_NOT_ALLOWED: 'The path exists but not with this method; see `Allow`',
  CONFLICT: 'Conflicts with the current state',
  GONE: 'What the request points at is no longer kept (a change-feed cursor older than the retention): start again',
  PRECONDITION_FAILED:
    '`If-Match` does not match the current `ETag`: nothing changed. Read the resource again, reapply the change, retry',
  PAYLOAD_TOO_LARGE: 'Body over 1 MiB',
  VALIDATION_FAILED: 'Body fields failed validation (an unknown field included); `errors` names each',
  TOO_MANY_REQUESTS: 'Over the request budget: wait `Retry-After` seconds',
  INTERNAL_SERVER_ERROR:
    'Unexpected server error, logged with the request id: quote `X-Request-Id` when reporting it',
  SERVICE_UNAVAILABLE: 'The database is unavailable: retry after `Retry-After` seconds',
};

/** How the answers of one operation differ from another's in their headers. */
export interface Variant {
  /** Under a request budget: every answer carries the RateLimit headers. */
  counted: boolean;
  /** Takes an `Idempotency-Key`: a success may be a replay (`Idempotent-Replayed`). */
  replayable?: boolean;
}

/**
 * A variant's component name: the common case (a counted operation, not replayable) has the
 * plain name; the others say how they differ, so no two header sets share a name.
 */
function nameOf(base: string, { counted, replayable = false }: Variant): string {
  return `${base}${replayable ? 'Replayable' : ''}${counted ? '' : 'Unmetered'}`;
}

/** The headers every answer of an operation of this variant carries. */
export function commonHeaders({ counted }: Variant): string[] {
  return [...ALWAYS, ...(counted ? BUDGET : [])];
}

/** Without its Markdown and past its first clause: an error's `message` as a server would word it. */
const messageOf = (description: string) => description.split(/[;:]/)[0]!.replaceAll('`', '').slice(0, 200);

function errorComponent(code: ErrorCode, variant: Variant): Json {
  const names = commonHeaders(variant);
  if (code === 'TOO_MANY_REQUESTS' || code === 'SERVICE_UNAVAILABLE') names.push('Retry-After');
  if (code === 'UNAUTHORIZED') names.push('WWW-Authenticate');
  const description = ERROR_DESCRIPTIONS[code];
  const validation = code === 'VALIDATION_FAILED';
  const example = validation
    ? {
        code,
        message: 'The request body failed validation',
        errors: [{ field: 'name', message: 'Required' }],
      }
    : { code, message: messageOf(description) };
  const headers = headersOf(names);
  // A 403 of an API key outside its scopes names the scope it lacks (RFC 6750's insufficient_scope).
  if (code === 'FORBIDDEN') headers['WWW-Authenticate'] = headerRef('InsufficientScope');
  return {
    description,
    headers,
    content: {
      'application/json': { schema: schemaRef(validation ? 'ValidationError' : 'ApiError'), example },
    },
  };
}

/** The answers without a body that are the same wherever they appear, but for their variant. */
const BODILESS = {
  NoContent: { status: 204, description: 'Done; no body', headers: [] as string[] },
  Accepted: {
    status: 202,
    description: 'Accepted: it goes on in the background. No body.',
    headers: [] as string[],
  },
  // No `content` on purpose: a generator then gives the 304 no body type (openapi-typescript
  // `content?: never`, orval `void`) instead of an empty object. No document shape makes the
  // common generators treat it as a success (they type 2xx as data only; docs/decisions.md),
  // so the description tells the integrator what to do with it.
  NotModified: {
    status: 304,
    description:
      'Not modified: the `ETag` sent in `If-None-Match` is still current. No body: the ' +
      'representation is the one the client stored with that `ETag`, which stays valid.',
    headers: ['ETag'],
  },
} as const;

/**
 * The reusable responses of one document (`components.responses`): the contract's errors, the
 * same bodies and headers on every operation, and the answers without a body. Operations get a
 * reference (`{"$ref": "#/components/responses/NotFound"}`), with their own `description`
 * beside it only where their wording differs. A component exists only once referenced, so the
 * document has no unused ones.
 */
export class ResponseComponents {
  readonly #components = new Map<string, { status: number; response: Json }>();

  /** A reference to the response of error `code`, worded `description` for this operation. */
  error(code: ErrorCode, variant: Variant, description = ERROR_DESCRIPTIONS[code]): Json {
    const name = nameOf(ERROR_NAMES[code], { counted: variant.counted });
    if (!this.#components.has(name)) {
      this.#components.set(name, {
        status: ERROR_CODES[code].status,
        response: errorComponent(code, variant),
      });
    }
    return this.#reference(name, description);
  }

  /** A reference to an answer without a body: a 204 or a 304. */
  bodiless(kind: keyof typeof BODILESS, variant: Variant): Json {
    const { status, description, headers } = BODILESS[kind];
    const replayable = kind === 'NoContent' && variant.replayable === true;
    const name = nameOf(kind, { counted: variant.counted, replayable });
    if (!this.#components.has(name)) {
      const names = [...commonHeaders(variant), ...headers, ...(replayable ? ['Idempotent-Replayed'] : [])];
      this.#components.set(name, { status, response: { description, headers: headersOf(names) } });
    }
    return this.#reference(name, description);
  }

  /** The components, by status then name, each a copy. */
  toJson(): Record<string, Json> {
    const entries = [...this.#components].sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b));
    return Object.fromEntries(entries.map(([name, { response }]) => [name, structuredClone(response)]));
  }

  #reference(name: string, description: string): Json {
    const component = this.#components.get(name)!.response;
    const ref = `#/components/responses/${name}`;
    return description === component.description ? { $ref: ref } : { $ref: ref, description };
  }
}
