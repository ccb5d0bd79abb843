import type { ErrorCode } from '../error-codes';
import type { Json } from './components';

/**
 * What an operation is, as far as the HTTP layer of version 1.1 goes: read from its route
 * metadata and from the schemas the generator produced, so an operation added later gets its
 * headers, parameters and statuses without anyone touching the document code. An operation's
 * entry in ./operations.ts may correct a trait where the derivation is wrong.
 */
export interface Traits {
  /** The success body is a page (`data` + `pagination`): a `Link` header. */
  list: boolean;
  /** The success body is one record (it has `id` and `updatedAt`): an `ETag` header. */
  record: boolean;
  /** A GET of one record: takes `If-None-Match`, may answer 304. */
  conditionalRead: boolean;
  /** A write checked against the record's ETag: takes `If-Match`, may answer 412. */
  conditionalWrite: boolean;
  /** Takes an `Idempotency-Key` (the creations, and appending to a collection). */
  idempotent: boolean;
  /** Under a request budget: RateLimit headers, may answer 429. Every procedure is. */
  counted: boolean;
  /**
   * Who may call: `bearer` needs a token; `optional` serves anonymous callers and more to some
   * (sign-up: an admin's token may set a role); `none` takes no token (sign-in, refresh).
   */
  security: 'bearer' | 'optional' | 'none';
}

/**
 * What the document says about one operation beyond what its procedure declares (summary,
 * statuses, schemas): prose for integrators, examples, and the wording of the errors where the
 * generic one would be wrong. Keyed by procedure path (`songs.create`).
 */
export interface OperationDoc {
  /** Follows the route's own description: who may call it, what it answers, what to watch for. */
  description: string;
  /** Name of the request body's component schema (default: from the procedure path). */
  body?: string;
  /** An example request body. */
  request?: Json;
  /** An example success body (default: built from the schema's examples). */
  response?: unknown;
  /** Example values of query parameters, by name. */
  query?: Record<string, string | number>;
  /**
   * This operation's wording of an error response, replacing the generic one; a code listed here
   * is documented even when nothing else implies it.
   */
  errors?: Partial<Record<ErrorCode, string>>;
  /** Corrections of the derived traits (./traits.ts), where the derivation is wrong. */
  traits?: Partial<Traits>;
}
