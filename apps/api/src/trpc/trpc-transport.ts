import type { IncomingMessage } from 'node:http';
import {
  appErrorOf,
  appRouter,
  type Context,
  errorHeaders,
  operationAt,
  refusesCaller,
  rpcErrorShape,
} from '@music/api-router';
import { TRPCError } from '@trpc/server';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { chargeBudget } from '../http/budget-edge';
import { conditionOf } from '../http/conditions';
import { type Exchange, failureOf } from '../http/exchange';
import { MAX_BODY_BYTES, sendJson } from '../http/http';
import { labelRequest } from '../http/operation-label';
import type { CreateContext } from '../http/request-context';
import type { Budgets } from '../runtime/budgets';

export interface TrpcTransportOptions {
  createContext: CreateContext;
  /** Logs a failure nobody expected (the client gets a 500 that reveals nothing). */
  onInternalError(requestId: string, error: unknown): void;
  /** The same request budgets as `/v1` (version 1.2): the console's calls count too. */
  budgets?: Budgets | undefined;
}

/**
 * `/trpc`, the console's typed RPC. A plain query (`GET /trpc/<query>?input=…`, not batched, not
 * streamed) is answered here, through the same operation, with the body and headers tRPC's
 * handler writes (its error shape from the same formatter, `rpcErrorShape`): that handler turns
 * every request into a Fetch `Request` and back, which doubled the CPU of a song detail on
 * `/trpc` compared with `/v1` (docs/decisions.md). Everything else goes to tRPC's handler.
 */
export function createTrpcTransport(options: TrpcTransportOptions) {
  const { createContext, onInternalError, budgets } = options;

  async function plainQuery(exchange: Exchange, path: string): Promise<boolean> {
    const { req, res, url, requestId } = exchange;
    const operation = operationAt(path);
    if (req.method !== 'GET' || operation?.kind !== 'query' || operation.traits.download) return false;
    if (url.searchParams.has('batch') || req.headers['trpc-accept'] !== undefined) return false;
    if (req.headers.accept?.includes('application/jsonl')) return false;
    const raw = url.searchParams.get('input');
    let input: unknown;
    try {
      input = raw === null ? undefined : JSON.parse(raw);
    } catch {
      // tRPC's handler answers a malformed input with its parse error.
      return false;
    }
    const { headers } = exchange;
    Object.assign(headers, { 'Content-Type': 'application/json', Vary: 'trpc-accept, accept' });
    try {
      const ctx = await createContext(req, requestId);
      // The caller's budget, as on /v1: RateLimit headers on the answer, a 429 when over.
      const charged = chargeBudget(budgets, ctx, operation, headers);
      if (charged) await charged;
      const data = await operation.call(ctx, async () => input);
      sendJson(res, 200, { result: { data } }, headers);
    } catch (failure) {
      // The one error path, answered in tRPC's envelope instead of the contract's body.
      const error = failureOf(exchange, failure, onInternalError);
      Object.assign(headers, errorHeaders(error));
      sendJson(res, error.status, { error: rpcErrorShape(error, path) }, headers);
    }
    return true;
  }

  /**
   * The context of a call tRPC's handler serves: the caller's budget is charged first, as on
   * `/v1` (its RateLimit headers go into `headers`, which the answer carries; over budget is a
   * 429 for a caller the procedure would not refuse anyway). A mutation's context carries its
   * `If-Match` (version 1.1), as on `/v1`: set here, before the procedure runs, because each
   * tRPC middleware copies the context (a later assignment would not reach the service). A
   * malformed header is a 400, but only for a caller who gets that far: one the procedure will
   * refuse (no token, a refused token) gets its 401 first, as on `/v1`.
   */
  async function handlerContext(
    req: IncomingMessage,
    path: string,
    requestId: string,
    headers: Record<string, string>,
  ): Promise<Context> {
    const ctx = await createContext(req, requestId);
    const operation = operationAt(path);
    if (!operation) return ctx;
    if (operation.traits.download || operation.traits.upload) {
      // Files are streamed by /v1 alone: an RPC call would have to hold all of one.
      throw new TRPCError({
        code: 'NOT_FOUND',
        message: `${path} ${operation.traits.download ? 'answers' : 'takes'} a file: use /v1${operation.route?.path ?? ''}`,
      });
    }
    try {
      const charged = chargeBudget(budgets, ctx, operation, headers);
      if (charged) await charged;
    } catch (error) {
      // Thrown as tRPC's own code so its handler answers 429; the formatter reads the AppError.
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: (error as Error).message, cause: error });
    }
    if (operation.kind !== 'mutation') return ctx;
    try {
      const condition = conditionOf(req, 'if-match');
      if (condition !== undefined) ctx.ifMatch = condition;
      return ctx;
    } catch (error) {
      if (refusesCaller(operation.isPublic, ctx)) return ctx;
      // Thrown as tRPC's own code so its handler answers 400; the formatter reads the AppError.
      throw new TRPCError({ code: 'BAD_REQUEST', message: (error as Error).message, cause: error });
    }
  }

  function handler({ req, res, requestId, headers: baseHeaders }: Exchange, path: string) {
    return nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path,
      // One HTTP request is one call: batching would let one request make many login attempts.
      allowBatching: false,
      maxBodySize: MAX_BODY_BYTES,
      createContext: () => handlerContext(req, path, requestId, baseHeaders),
      responseMeta({ errors }) {
        // Every answer here is JSON; tRPC's own early failures (an unsupported content type, a
        // refused batch) would otherwise go out as text/plain.
        const headers: Record<string, string> = { ...baseHeaders, 'Content-Type': 'application/json' };
        // One call per request: at most one error, whose headers the answer carries.
        for (const error of errors) Object.assign(headers, errorHeaders(appErrorOf(error).error));
        return { headers };
      },
      onError({ error }) {
        // tRPC wraps what it caught: the log shows the original.
        if (appErrorOf(error).isInternal) onInternalError(requestId, error.cause ?? error);
      },
    });
  }

  return async function trpc(exchange: Exchange) {
    const path = exchange.route.join('/');
    // A known procedure's name; anything else (a batch, a typo) is not a label of its own.
    if (operationAt(path)) labelRequest(exchange.res, { operation: path, route: `/trpc/${path}` });
    if (await plainQuery(exchange, path)) return;
    await handler(exchange, path);
  };
}
