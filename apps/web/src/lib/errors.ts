import { TRPCClientError } from '@trpc/client';
import type { z } from 'zod';

/** What the API says about a failed call: its contract code, status and field errors. */
export interface ApiProblem {
  status: number;
  code: string;
  message: string;
  fields: Record<string, string>;
  retryAfter?: number;
}

interface ErrorData {
  code?: string;
  httpStatus?: number;
  errors?: Array<{ field: string; message: string }>;
  retryAfter?: number;
}

const WORDS: Record<string, string> = {
  UNAUTHORIZED: 'Your session has ended. Please sign in again.',
  FORBIDDEN: 'You are not allowed to do this.',
  NOT_FOUND: 'This no longer exists. It may have been deleted by someone else.',
  CONFLICT: 'This conflicts with something that already exists.',
  VALIDATION_FAILED: 'Some fields need attention.',
  TOO_MANY_REQUESTS: 'Too many attempts. Please wait a moment and try again.',
  SERVICE_UNAVAILABLE: 'The catalogue service is unavailable right now. Try again shortly.',
  INTERNAL_ERROR: 'Something went wrong on our side. Try again, and tell us if it keeps happening.',
};

export function toProblem(error: unknown): ApiProblem {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as ErrorData;
    const code =
      data.code ?? (error.message === 'Failed to fetch' ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR');
    const fields: Record<string, string> = {};
    for (const e of data.errors ?? []) fields[e.field] ??= e.message;
    return {
      status: data.httpStatus ?? 0,
      code,
      // The API's message names the rule (e.g. "Only admins may delete artists"); keep it.
      message: error.message && code !== 'INTERNAL_ERROR' ? error.message : (WORDS[code] ?? error.message),
      fields,
      ...(data.retryAfter !== undefined ? { retryAfter: data.retryAfter } : {}),
    };
  }
  if (error instanceof Error)
    return { status: 0, code: 'NETWORK', message: WORDS.SERVICE_UNAVAILABLE!, fields: {} };
  return { status: 0, code: 'UNKNOWN', message: 'Something went wrong.', fields: {} };
}

/** A sentence for people, in the words of the contract's error code. */
export function describeError(error: unknown): string {
  const problem = toProblem(error);
  if (problem.code === 'VALIDATION_FAILED' && Object.keys(problem.fields).length > 0)
    return WORDS.VALIDATION_FAILED!;
  return problem.message || WORDS[problem.code] || 'Something went wrong.';
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as ErrorData | undefined)?.httpStatus === 401;
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
