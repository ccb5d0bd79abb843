import { ERROR_CODES, type ErrorCode } from '@music/api-router/schemas';
import type { AppRouter } from '@music/api-router/types';
import { isTRPCClientError, type TRPCClientError } from '@trpc/client';
import type { z } from 'zod';

/** What the API says about a failed call: its contract code, status and field errors. */
export interface ApiProblem {
  status: number;
  /** The contract's code; NETWORK and UNKNOWN are failures that never reached the API. */
  code: ErrorCode | 'NETWORK' | 'UNKNOWN';
  message: string;
  fields: Record<string, string>;
  retryAfter?: number;
}

// Every code the API can send has its words: a new code fails to compile until it is worded.
const WORDS: Record<ErrorCode, string> = {
  BAD_REQUEST: 'The console sent a request the catalogue service could not read. Reload and try again.',
  UNAUTHORIZED: 'Your session has ended. Please sign in again.',
  FORBIDDEN: 'You are not allowed to do this.',
  NOT_FOUND: 'This no longer exists. It may have been deleted by someone else.',
  METHOD_NOT_ALLOWED: 'The catalogue service does not allow this. Reload and try again.',
  CONFLICT: 'This conflicts with something that already exists.',
  GONE: 'This is no longer available. Reload and start again.',
  PRECONDITION_FAILED: 'Someone else changed this while you were editing it. Reload to see their changes.',
  PAYLOAD_TOO_LARGE: 'This is too large to send. Shorten it and try again.',
  VALIDATION_FAILED: 'Some fields need attention.',
  TOO_MANY_REQUESTS: 'Too many attempts. Please wait a moment and try again.',
  INTERNAL_SERVER_ERROR: 'Something went wrong on our side. Try again, and tell us if it keeps happening.',
  SERVICE_UNAVAILABLE: 'The catalogue service is unavailable right now. Try again shortly.',
};

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/**
 * The contract's code of a failed call. A code this console does not know (a newer API) or no
 * tRPC body at all (a proxy's error page, a lost connection) is judged by its status, else as
 * unreachable when the request never got an answer, else as a failure on the server's side.
 */
function codeOf(error: TRPCClientError<AppRouter>): { code: ErrorCode; fromApi: boolean } {
  const sent: unknown = error.data?.code;
  if (isErrorCode(sent)) return { code: sent, fromApi: true };
  const status = error.data?.httpStatus;
  const byStatus = (Object.keys(ERROR_CODES) as ErrorCode[]).find(
    (code) => ERROR_CODES[code].status === status,
  );
  if (byStatus) return { code: byStatus, fromApi: false };
  // fetch rejects with a TypeError ("Failed to fetch", "Load failed", "NetworkError when…").
  const unreachable = error.message === 'Failed to fetch' || error.cause instanceof TypeError;
  return { code: unreachable ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR', fromApi: false };
}

export function toProblem(error: unknown): ApiProblem {
  if (isTRPCClientError<AppRouter>(error)) {
    const data = error.data;
    const { code, fromApi } = codeOf(error);
    const fields: Record<string, string> = {};
    for (const e of data?.errors ?? []) fields[e.field] ??= e.message;
    return {
      status: data?.httpStatus ?? 0,
      code,
      // The API's message names the rule (e.g. "Only admins may delete artists"); keep it. A 500's
      // says nothing a person can act on, and a message that is not the API's (a browser's
      // "Failed to fetch", a parser's complaint about a proxy's page) is not meant for people.
      message: fromApi && error.message && code !== 'INTERNAL_SERVER_ERROR' ? error.message : WORDS[code],
      fields,
      ...(data?.retryAfter !== undefined ? { retryAfter: data.retryAfter } : {}),
    };
  }
  if (error instanceof Error)
    return { status: 0, code: 'NETWORK', message: WORDS.SERVICE_UNAVAILABLE, fields: {} };
  return { status: 0, code: 'UNKNOWN', message: 'Something went wrong.', fields: {} };
}

/** A sentence for people, in the words of the contract's error code. */
export function describeError(error: unknown): string {
  const problem = toProblem(error);
  if (problem.code === 'VALIDATION_FAILED' && Object.keys(problem.fields).length > 0)
    return WORDS.VALIDATION_FAILED;
  return problem.message || 'Something went wrong.';
}

/**
 * "Try again in 10 minutes.", from a 429's wait in seconds (its Retry-After, or `retryAfter` in a
 * tRPC error), in whole minutes rounded up; unknown or nonsense: "in a few minutes".
 */
export function tryAgainAfter(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0)
    return 'Try again in a few minutes.';
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`;
}

export function isUnauthorized(error: unknown): boolean {
  return isTRPCClientError<AppRouter>(error) && error.data?.httpStatus === 401;
}

/** Client-side validation with the procedure's own zod schema: field path -> first message. */
export function validate<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { ok: true; data: z.output<S> } | { ok: false; fields: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join('.') || 'form'] ??= issue.message;
  return { ok: false, fields };
}
