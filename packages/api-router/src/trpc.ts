import { initTRPC, TRPCError } from '@trpc/server';
import { type TRPC_ERROR_CODE_KEY, TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { $ZodIssue } from 'zod/v4/core';
import type { Context } from './context';
import {
  AppError,
  describeError,
  type ErrorCode,
  issuesToFieldErrors,
  toAppError,
  validationError,
} from './errors';
import { withReads } from './read-routing';
import { type KeyAccess, keyAccessOf, type Scope } from './scopes';
import type { Traits } from './traits';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How an operation appears on `/v1`, beyond what trpc-to-openapi knows about. */
export interface RouteMeta {
  method: HttpMethod;
  path: `/${string}`;
  summary: string;
  description?: string;
  tag: string;
  /**
   * Success status on `/v1` (default 200). 201 adds a `Location` header to a record; 204, and a
   * 202 of an operation whose output is empty, send no body.
   */
  status?: 200 | 201 | 202 | 204;
  /** Errors this operation can answer besides the ones every operation of its shape has. */
  errors?: ErrorCode[];
  /** Corrections of the traits derived from the procedure (./traits.ts), where the derivation is wrong. */
  traits?: Partial<Traits>;
  /** What an API key needs to call it, where its tag and method do not say (./scopes.ts). */
  keyAccess?: KeyAccess;
  /**
   * The success body is a file streamed as it is written (an export: the procedure answers a
   * `FileAnswer`, ./files.ts), in one of these media types (what each is, for the document).
   * Served on `/v1` only.
   */
  download?: Record<string, string>;
  /**
   * The request body is a file read as it arrives (an import: the procedure's `file` input is a
   * `FileUpload`, ./files.ts), of one of these media types; its other input fields are query
   * parameters. Served on `/v1` only.
   */
  upload?: Record<string, string>;
  /**
   * `primary`: a GET that must not be served by a read replica although its access says it
   * could (./read-routing.ts). Catalogue and playlist reads may otherwise be a moment old.
   */
  reads?: 'primary';
}

/** `public` is set by `publicProcedure` only: whether an operation needs a caller is declared by its builder. */
export type Meta = OpenApiMeta<{ route?: RouteMeta; public?: true }>;

/** The meta of an operation served on both transports. */
export function rest(route: RouteMeta): Meta {
  return {
    route,
    openapi: {
      method: route.method,
      path: route.path,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      // Security and error responses are written by ./openapi.ts, from the builder and the contract.
      errorResponses: [],
    },
  };
}

/**
 * The edge between the domain's errors and tRPC's: tRPC's code for each contract code (services
 * throw AppError, which knows no transport), and back for tRPC's own failures.
 */
const TRPC_CODES: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_SUPPORTED',
  CONFLICT: 'CONFLICT',
  // tRPC has no 410: its nearest code; the status sent is the contract's (AppError's).
  GONE: 'NOT_FOUND',
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  VALIDATION_FAILED: 'UNPROCESSABLE_CONTENT',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

const FROM_TRPC: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  PARSE_ERROR: 'BAD_REQUEST',
  UNSUPPORTED_MEDIA_TYPE: 'BAD_REQUEST',
  ...Object.fromEntries(
    Object.entries(TRPC_CODES)
      .filter(([app]) => app !== 'GONE')
      .map(([app, trpc]) => [trpc, app]),
  ),
};

function isZodError(error: unknown): error is { issues: $ZodIssue[] } {
  return typeof error === 'object' && error !== null && Array.isArray((error as { issues?: unknown }).issues);
}

/**
 * Anything a call failed with, as the AppError both transports send: an AppError (also inside
 * tRPC's wrapper), failed input validation as 422 with field errors, tRPC's own refusals by
 * their code, the rest through the domain's `toAppError` (database failures, then a 500).
 * `isInternal` is true for the unexpected kind: those are logged.
 */
export function appErrorOf(error: unknown): { error: AppError; isInternal: boolean } {
  if (!(error instanceof TRPCError)) return toAppError(error);
  const { cause } = error;
  if (cause instanceof AppError) return { error: cause, isInternal: false };
  if (error.code === 'BAD_REQUEST' && isZodError(cause)) {
    return { error: validationError(issuesToFieldErrors(cause.issues), undefined, cause), isInternal: false };
  }
  if (error.code !== 'INTERNAL_SERVER_ERROR') {
    const code = FROM_TRPC[error.code] ?? 'BAD_REQUEST';
    return { error: new AppError(code, error.message, { cause: error }), isInternal: false };
  }
  return toAppError(cause ?? error);
}

/**
 * True when a call failed its input schema (not a check the service made itself): on `/v1` a
 * query string's such failure is a 400, while a service's own 422 on a query parameter (a list's
 * cursor it cannot read) stays a 422.
 */
export function isInputFailure(error: unknown): boolean {
  const { error: app } = appErrorOf(error);
  return app.code === 'VALIDATION_FAILED' && isZodError(app.cause);
}

/** The error as tRPC carries it: its code follows ours, the AppError rides along as the cause. */
function toTrpcError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODES[error.code], message: error.message, cause: error });
}

/** The error body of `/trpc`, from the AppError: one formatter for tRPC's handler and the fast path. */
export function rpcErrorShape(error: AppError, path: string | undefined) {
  return {
    message: error.message,
    code: TRPC_ERROR_CODES_BY_KEY[TRPC_CODES[error.code]],
    data: {
      code: error.code,
      // tRPC's handler answers with this status.
      httpStatus: error.status,
      path,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
    },
  };
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter: ({ shape, error }) => rpcErrorShape(appErrorOf(error).error, shape.data.path),
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every failure leaves a procedure as the tRPC form of an AppError (middlewares see failures as
 * results, so the mapping happens on the result). Unexpected ones are logged here, once, with the
 * request id.
 */
function mapFailure<R extends { ok: boolean; error?: unknown }>(ctx: Context, path: string, result: R): R {
  if (result.ok) return result;
  const { error, isInternal } = appErrorOf(result.error);
  if (isInternal) {
    ctx.log.error('procedure failed', { path, requestId: ctx.requestId, error: describeError(error.cause) });
  }
  return { ...result, error: toTrpcError(error) };
}

const refusedToken = () => new AppError('UNAUTHORIZED', 'The bearer token is invalid or expired');

/**
 * Whether an operation answers this caller 401: a token that was sent and refused, always (an
 * expired token is a 401 to renew, not a silent downgrade to anonymous; version 1.1), and no
 * caller at all where one is needed. The one statement of it: both builders below decide by it,
 * and so do the HTTP edges that must know before the call (a budget counts such a request but
 * does not refuse it; a malformed conditional header is a 400 only for a caller who gets that far).
 */
export function refusesCaller(isPublic: boolean, ctx: Pick<Context, 'actor' | 'tokenRefused'>): boolean {
  return ctx.tokenRefused === true || (!isPublic && ctx.actor === null);
}

/**
 * An API key's refusal, or none: outside its scopes a 403 whose `WWW-Authenticate` names the
 * scope that would grant it (RFC 6750's `insufficient_scope`); an operation no key may call, a
 * 403 that says to sign in. Decided before the input is read, like the caller check. A signed-in
 * session is never limited by scopes.
 */
function keyRefusal(ctx: Context, meta: Meta | undefined): AppError | undefined {
  const key = ctx.actor?.apiKey;
  const route = meta?.route;
  if (!key) return undefined;
  const access = route ? keyAccessOf(route) : 'session';
  if (access === 'any' || key.scopes.includes(access as Scope)) return undefined;
  if (access === 'session') {
    return new AppError('FORBIDDEN', 'API keys cannot call this operation; sign in to do it', {
      challenge: 'Bearer realm="music", error="insufficient_scope"',
    });
  }
  return new AppError('FORBIDDEN', `This API key lacks the scope ${access}`, {
    challenge: `Bearer realm="music", error="insufficient_scope", scope="${access}"`,
  });
}

/** An operation anyone may call; a token, when one is sent, must be valid. */
export const publicProcedure = t.procedure
  .meta({ public: true })
  .use(async ({ ctx, meta, next, path, type }) => {
    if (refusesCaller(true, ctx)) throw toTrpcError(refusedToken());
    const refusal = keyRefusal(ctx, meta);
    if (refusal) throw toTrpcError(refusal);
    const result = ctx.reads
      ? await withReads(ctx, meta, type, (db = ctx.db) => next({ ctx: { db } }))
      : await next();
    return mapFailure(ctx, path, result);
  });

/**
 * An operation that needs a caller: the one place that checks it, before the input is read (so
 * a request without a token gets 401 whatever its body). The actor check and the error mapping
 * are one middleware rather than two in a row: every level of tRPC's middleware chain copies
 * the call's options and closes over them again, on the hottest path there is.
 */
export const authedProcedure = t.procedure.use(async ({ ctx, meta, next, path, type }) => {
  if (refusesCaller(false, ctx) || !ctx.actor) {
    throw toTrpcError(
      ctx.tokenRefused ? refusedToken() : new AppError('UNAUTHORIZED', 'A valid bearer token is required'),
    );
  }
  const refusal = keyRefusal(ctx, meta);
  if (refusal) throw toTrpcError(refusal);
  const { actor } = ctx;
  const result = ctx.reads
    ? await withReads(ctx, meta, type, (db = ctx.db) => next({ ctx: { actor, db } }))
    : await next({ ctx: { actor } });
  return mapFailure(ctx, path, result);
});
