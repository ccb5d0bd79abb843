import { ERROR_CODES, type ErrorCode } from '@music/api-router/schemas';
import type { AppRouter } from '@music/api-router/types';
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { describeError, toProblem, tryAgainAfter } from './errors';

/**
 * A failed call as the tRPC client reports it: the API's error envelope (the error formatter in
 * packages/api-router/src/trpc.ts, the console's own routes in src/server/session.ts), whose
 * `data.code` is the contract's code.
 */
function failure(message: string, data: { code: string; httpStatus: number; [key: string]: unknown }) {
  return TRPCClientError.from<AppRouter>({ error: { message, code: -32603, data } });
}

const FRIENDLY_500 = 'Something went wrong on our side. Try again, and tell us if it keeps happening.';

describe('toProblem and describeError', () => {
  it('shows a 500 as the friendly sentence, never the raw message', () => {
    const error = failure('Internal server error', { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 });
    expect(toProblem(error)).toMatchObject({
      status: 500,
      code: 'INTERNAL_SERVER_ERROR',
      message: FRIENDLY_500,
    });
    expect(describeError(error)).toBe(FRIENDLY_500);
    // What the console once looked for and the API never sends is no code of the contract.
    expect(Object.keys(ERROR_CODES)).not.toContain('INTERNAL_ERROR');
  });

  it('keeps the API’s own message for a refusal a person can act on', () => {
    const error = failure('Only admins may delete artists', { code: 'FORBIDDEN', httpStatus: 403 });
    expect(toProblem(error)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(describeError(error)).toBe('Only admins may delete artists');
  });

  it('words every code the API sends when its message is empty', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const problem = toProblem(failure('', { code, httpStatus: ERROR_CODES[code].status }));
      expect(problem.code, code).toBe(code);
      expect(problem.message, code).toMatch(/^[A-Z].+\.$/);
    }
  });

  it('turns a 422 into field errors and one sentence', () => {
    const error = failure('The request body failed validation', {
      code: 'VALIDATION_FAILED',
      httpStatus: 422,
      errors: [
        { field: 'title', message: 'Too long' },
        { field: 'title', message: 'Second complaint' },
        { field: 'artistIds.1', message: 'Repeated id' },
      ],
    });
    expect(toProblem(error).fields).toEqual({ title: 'Too long', 'artistIds.1': 'Repeated id' });
    expect(describeError(error)).toBe('Some fields need attention.');
  });

  it('judges a code it does not know by its status, and never shows a 5xx’s message', () => {
    const gone = failure('The thing went away', { code: 'GONE_FOREVER', httpStatus: 404 });
    expect(toProblem(gone)).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(describeError(gone)).toBe('This no longer exists. It may have been deleted by someone else.');
    const odd = failure('TypeError: x is undefined at line 3', { code: 'INTERNAL_ERROR', httpStatus: 500 });
    expect(describeError(odd)).toBe(FRIENDLY_500);
    const strange = failure('Teapot', { code: 'TEAPOT', httpStatus: 418 });
    expect(toProblem(strange).code).toBe('INTERNAL_SERVER_ERROR');
    expect(describeError(strange)).toBe(FRIENDLY_500);
  });

  it('reports an answer that is not the API’s, or none at all, in words', () => {
    // A proxy's HTML error page: the client cannot parse it.
    const unreadable = TRPCClientError.from<AppRouter>(new SyntaxError('Unexpected token < in JSON'));
    expect(toProblem(unreadable)).toMatchObject({
      status: 0,
      code: 'INTERNAL_SERVER_ERROR',
      message: FRIENDLY_500,
    });
    // The browser could not reach the console's server (each browser words it its own way).
    for (const words of [
      'Failed to fetch',
      'Load failed',
      'NetworkError when attempting to fetch resource.',
    ]) {
      const offline = TRPCClientError.from<AppRouter>(new TypeError(words));
      expect(toProblem(offline), words).toMatchObject({ status: 0, code: 'SERVICE_UNAVAILABLE' });
      expect(describeError(offline), words).toBe(
        'The catalogue service is unavailable right now. Try again shortly.',
      );
    }
  });

  it('falls back to a plain sentence for what is not a call’s failure', () => {
    expect(toProblem(new Error('boom'))).toMatchObject({ code: 'NETWORK' });
    expect(describeError(new Error('boom'))).toBe(
      'The catalogue service is unavailable right now. Try again shortly.',
    );
    expect(toProblem('nonsense')).toMatchObject({ code: 'UNKNOWN', status: 0 });
    expect(describeError(undefined)).toBe('Something went wrong.');
  });
});

describe('tryAgainAfter', () => {
  it('says the wait in whole minutes, rounded up', () => {
    expect(tryAgainAfter(600)).toBe('Try again in 10 minutes.');
    expect(tryAgainAfter(61)).toBe('Try again in 2 minutes.');
    expect(tryAgainAfter(60)).toBe('Try again in 1 minute.');
    expect(tryAgainAfter(5)).toBe('Try again in 1 minute.');
  });

  it('says "a few minutes" when the wait is unknown', () => {
    for (const seconds of [undefined, 0, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(tryAgainAfter(seconds), String(seconds)).toBe('Try again in a few minutes.');
    }
  });
});
