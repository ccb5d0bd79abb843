import { isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation } from '@music/db';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { $ZodIssue } from 'zod/v4/core';

/** The closed set of error codes clients branch on; one row each: HTTP status and tRPC code. */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, trpc: 'BAD_REQUEST' },
  UNAUTHORIZED: { status: 401, trpc: 'UNAUTHORIZED' },
  FORBIDDEN: { status: 403, trpc: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, trpc: 'NOT_FOUND' },
  METHOD_NOT_ALLOWED: { status: 405, trpc: 'METHOD_NOT_SUPPORTED' },
  CONFLICT: { status: 409, trpc: 'CONFLICT' },
  PAYLOAD_TOO_LARGE: { status: 413, trpc: 'PAYLOAD_TOO_LARGE' },
  VALIDATION_FAILED: { status: 422, trpc: 'UNPROCESSABLE_CONTENT' },
  TOO_MANY_REQUESTS: { status: 429, trpc: 'TOO_MANY_REQUESTS' },
  INTERNAL_SERVER_ERROR: { status: 500, trpc: 'INTERNAL_SERVER_ERROR' },
  SERVICE_UNAVAILABLE: { status: 503, trpc: 'SERVICE_UNAVAILABLE' },
} as const satisfies Record<string, { status: number; trpc: TRPC_ERROR_CODE_KEY }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface FieldError {
  /** Dotted path of the offending field, e.g. `email` or `artistIds.1`. */
  field: string;
  message: string;
}

export interface AppErrorOptions {
  errors?: FieldError[];
  /** Seconds, sent as `Retry-After` (429, 503). */
  retryAfter?: number;
  cause?: unknown;
}

/** The one error type services throw. Its code decides the HTTP status and the tRPC code. */
export class AppError extends TRPCError {
  readonly appCode: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super({ code: ERROR_CODES[code].trpc, message, cause: options.cause });
    this.name = 'AppError';
    this.appCode = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors;
    this.retryAfter = options.retryAfter;
  }
}

/** A 422 for one or more named fields. */
/** A 422 reports at most this many field errors (the first ones), so its size stays bounded. */
export const MAX_FIELD_ERRORS = 100;

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

function isZodError(error: unknown): error is { issues: $ZodIssue[] } {
  return typeof error === 'object' && error !== null && Array.isArray((error as { issues?: unknown }).issues);
}

const TRPC_TO_APP: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  PARSE_ERROR: 'BAD_REQUEST',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'BAD_REQUEST',
  UNPROCESSABLE_CONTENT: 'VALIDATION_FAILED',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

/** Seconds a client should wait before retrying while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER = 5;

/**
 * Turns anything a procedure (or tRPC itself) failed with into an AppError: input validation
 * becomes 422 with field errors, an unreachable database 503, a unique violation that slipped
 * past a service 409, and everything unexpected a 500 whose message reveals nothing.
 * `isInternal` is true for the last kind: those are logged.
 */
export function toAppError(error: unknown): { error: AppError; isInternal: boolean } {
  if (error instanceof AppError) return { error, isInternal: false };
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof AppError) return { error: cause, isInternal: false };

  if (error instanceof TRPCError && error.code === 'BAD_REQUEST' && isZodError(cause)) {
    return { error: validationError(issuesToFieldErrors(cause.issues)), isInternal: false };
  }
  if (isDatabaseUnavailable(cause)) {
    const unavailable = new AppError(
      'SERVICE_UNAVAILABLE',
      'The database is unavailable; try again shortly',
      {
        retryAfter: UNAVAILABLE_RETRY_AFTER,
        cause,
      },
    );
    return { error: unavailable, isInternal: false };
  }
  if (isUniqueViolation(cause)) {
    return {
      error: new AppError('CONFLICT', 'The record conflicts with an existing one', { cause }),
      isInternal: false,
    };
  }
  if (isForeignKeyViolation(cause)) {
    const conflict = new AppError(
      'CONFLICT',
      'A record this request refers to was changed or removed meanwhile',
      {
        cause,
      },
    );
    return { error: conflict, isInternal: false };
  }
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') {
    const code = TRPC_TO_APP[error.code] ?? 'BAD_REQUEST';
    return { error: new AppError(code, error.message, { cause: error }), isInternal: false };
  }
  return {
    error: new AppError('INTERNAL_SERVER_ERROR', 'Internal server error', { cause }),
    isInternal: true,
  };
}
