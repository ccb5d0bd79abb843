import { isStalePlan } from './driver/prepared';

/** Classifies driver errors (pg and PGlite both carry PostgreSQL's SQLSTATE in `code`). */

export function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function constraintOf(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

/** 23505: a unique index refused the row; optionally only for the named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return codeOf(error) === '23505' && (constraint === undefined || constraintOf(error) === constraint);
}

/** 23503: a foreign key refused the row (the referenced record is gone). */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return codeOf(error) === '23503' && (constraint === undefined || constraintOf(error) === constraint);
}

const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is restarting
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: still starting up
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout fired
  '55P03', // lock_not_available: lock_timeout fired
]);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end',
];

/**
 * True when the database could not serve the request (down, restarting, overloaded or too
 * slow) rather than refusing it: the API answers 503 with Retry-After for these.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // A prepared plan the server refused after a schema change: prepared again by the next try.
  if (isStalePlan(error)) return true;
  const code = codeOf(error);
  if (
    code &&
    (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code) || code.startsWith('08'))
  ) {
    return true;
  }
  const message = error instanceof Error ? error.message : '';
  if (UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}
