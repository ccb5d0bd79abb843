import 'server-only';
import type { ErrorCode, FieldError } from '@music/api-router/schemas';
import type { AppRouter } from '@music/api-router/types';
import { createTRPCClient, httpLink, isTRPCClientError } from '@trpc/client';

export const API_URL = (process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? '4000'}`).replace(
  /\/+$/,
  '',
);

/** An answer that is not the API's (a proxy's error page): its status is all there is to say. */
class UnexpectedAnswer extends Error {
  constructor(readonly status: number) {
    super(`Unexpected answer (${status})`);
  }
}

/**
 * The API's procedures, typed, for the console's own server routes (sign-in, refresh, sign-out).
 * One client per call: each carries its caller's headers (bearer token, client address).
 */
export function apiClient(headers: Record<string, string> = {}) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${API_URL}/trpc`,
        headers,
        fetch: async (url, init) => {
          // A session's answers are never Next's to cache.
          const res = await fetch(url, { ...init, cache: 'no-store' });
          if (!/^application\/json\b/i.test(res.headers.get('content-type') ?? '')) {
            await res.body?.cancel();
            throw new UnexpectedAnswer(res.status);
          }
          return res;
        },
      }),
    ],
  });
}

export interface ApiFailure {
  /** The API's status; 0 when it could not be reached. */
  status: number;
  /** Its error in the contract's terms; absent when the answer was not the API's. */
  error?: { code: ErrorCode; message: string; errors?: FieldError[]; retryAfter?: number };
}

/** What a failed call through `apiClient` amounts to. */
export function apiFailure(error: unknown): ApiFailure {
  if (!isTRPCClientError<AppRouter>(error)) return { status: 0 };
  const { data } = error;
  if (data) {
    const { code, httpStatus, errors, retryAfter } = data;
    return {
      status: httpStatus,
      error: {
        code,
        message: error.message,
        ...(errors ? { errors } : {}),
        ...(retryAfter !== undefined ? { retryAfter } : {}),
      },
    };
  }
  if (error.cause instanceof UnexpectedAnswer) return { status: error.cause.status };
  // JSON, but not in tRPC's envelope: the link keeps the response it could not read.
  const response = error.meta?.response;
  return { status: response instanceof Response ? response.status : 0 };
}
