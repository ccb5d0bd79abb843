import { isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation } from '@music/db';
import type { $ZodIssue } from 'zod/v4/core';
import {
  ERROR_CODES,
  type ErrorCode,
  type FieldError,
  MAX_FIELD_ERRORS,
  MAX_MESSAGE_LENGTH,
} from './error-codes';

export { ERROR_CODES, type ErrorCode, type FieldError, MAX_FIELD_ERRORS };

/** A message as clients get it: at most MAX_MESSAGE_LENGTH characters, cut with an ellipsis. */
export function bounded(message: string, max = MAX_MESSAGE_LENGTH): string {
  return message.length <= max ? message : `${message.slice(0, max - 1)}…`;
}

export interface AppErrorOptions {
  errors?: FieldError[];
  /** Seconds, sent as `Retry-After` (429, 503). */
  retryAfter?: number;
  /**
   * A 422 about a query parameter the query string carried well (a cursor, an `expand`) but
   * that names nothing usable: it stays a 422 on a GET, where other query validation is a 400.
   */
  inQuery?: boolean;
  cause?: unknown;
}

/**
 * The one error type services throw. Its code decides the HTTP status; it knows no transport
 * (the tRPC edge, ./trpc.ts, converts it to a TRPCError and back).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly retryAfter: number | undefined;
  readonly inQuery: boolean;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    // Bounded here, once, for every code path that words an error from what a client sent.
    super(bounded(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors?.map((e) =>
      e.message.length > MAX_MESSAGE_LENGTH ? { ...e, message: bounded(e.message) } : e,
    );
    this.retryAfter = options.retryAfter;
    this.inQuery = options.inQuery ?? false;
  }
}

/** A 422 for one or more named fields. */
export function validationError(
  errors: FieldError[],
  message = 'The request body failed validation',
): AppError {
  // An unknown key is echoed as its field; a client's 10,000-character key is cut short.
  const bounded = errors
    .slice(0, MAX_FIELD_ERRORS)
    .map((e) => (e.field.length > 200 ? { ...e, field: `${e.field.slice(0, 199)}…` } : e));
  return new AppError('VALIDATION_FAILED', message, { errors: bounded });
}

/** Zod issues as the contract's `errors[]`; an unknown key is reported under its own name. */
export function issuesToFieldErrors(issues: readonly $ZodIssue[]): FieldError[] {
  return issues.flatMap((issue): FieldError[] => {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...base, key].join('.'), message: 'Unknown field' }));
    }
    return [{ field: base.join('.'), message: issue.message }];
  });
}

/** A failure as the logs show it: its stack when it has one. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Seconds a client should wait before retrying while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER = 5;

/**
 * Turns anything a service failed with into an AppError: an unreachable database becomes 503, a
 * unique violation that slipped past a service 409, and everything unexpected a 500 whose
 * message reveals nothing. `isInternal` is true for the last kind: those are logged. (What the
 * transport adds, tRPC's wrapper and failed input validation, is unwrapped in ./trpc.ts.)
 */
export function toAppError(cause: unknown): { error: AppError; isInternal: boolean } {
  if (cause instanceof AppError) return { error: cause, isInternal: false };
  if (isDatabaseUnavailable(cause)) {
    const message = 'The database is unavailable; try again shortly';
    return {
      error: new AppError('SERVICE_UNAVAILABLE', message, { retryAfter: UNAVAILABLE_RETRY_AFTER, cause }),
      isInternal: false,
    };
  }
  if (isUniqueViolation(cause)) {
    return {
      error: new AppError('CONFLICT', 'The record conflicts with an existing one', { cause }),
      isInternal: false,
    };
  }
  if (isForeignKeyViolation(cause)) {
    const message = 'A record this request refers to was changed or removed meanwhile';
    return { error: new AppError('CONFLICT', message, { cause }), isInternal: false };
  }
  return {
    error: new AppError('INTERNAL_SERVER_ERROR', 'Internal server error', { cause }),
    isInternal: true,
  };
}
