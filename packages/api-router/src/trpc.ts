import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';
import { AppError, type ErrorCode, toAppError } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How an operation appears on `/v1`, beyond what trpc-to-openapi knows about. */
export interface RouteMeta {
  method: HttpMethod;
  path: `/${string}`;
  summary: string;
  description?: string;
  tag: string;
  /** Success status on `/v1` (default 200). 201 adds a `Location` header, 204 sends no body. */
  status?: 200 | 201 | 204;
  /** `public` operations need no token (an invalid one is ignored); default `required`. */
  auth?: 'public' | 'required';
  /** Errors this operation can answer besides the ones every operation of its shape has. */
  errors?: ErrorCode[];
}

export type Meta = OpenApiMeta<{ route?: RouteMeta }>;

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
      protect: route.auth !== 'public',
      // Error responses are written by ./openapi.ts from the contract, not by the generator.
      errorResponses: [],
    },
  };
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const app = toAppError(error).error;
      return {
        message: app.message,
        code: shape.code,
        data: {
          code: app.appCode,
          httpStatus: app.status,
          path: shape.data.path,
          ...(app.errors ? { errors: app.errors } : {}),
          ...(app.retryAfter !== undefined ? { retryAfter: app.retryAfter } : {}),
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every failure leaves a procedure as an AppError (middlewares see failures as results, so the
 * mapping happens on the result). Unexpected ones are logged here, once, with the request id.
 */
function mapFailure<R extends { ok: boolean; error?: unknown }>(ctx: Context, path: string, result: R): R {
  if (result.ok) return result;
  const { error, isInternal } = toAppError(result.error);
  if (isInternal) {
    ctx.log.error('procedure failed', { path, requestId: ctx.requestId, error: describe(result.error) });
  }
  return { ...result, error };
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
}

export const publicProcedure = t.procedure.use(async ({ ctx, next, path }) =>
  mapFailure(ctx, path, await next()),
);

/**
 * The actor check and the error mapping in one middleware rather than two in a row: every level
 * of tRPC's middleware chain copies the call's options and closes over them again, on the
 * hottest path there is (every authenticated call).
 */
export const authedProcedure = t.procedure.use(async ({ ctx, next, path }) => {
  if (!ctx.actor) throw new AppError('UNAUTHORIZED', 'A valid bearer token is required');
  return mapFailure(ctx, path, await next({ ctx: { actor: ctx.actor } }));
});
