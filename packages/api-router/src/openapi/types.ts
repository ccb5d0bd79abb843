import type { ErrorCode } from '../error-codes';
import type { Json } from './components';

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
}
