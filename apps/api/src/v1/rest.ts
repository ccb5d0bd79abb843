import type { IncomingMessage } from 'node:http';
import {
  type Context,
  type EntityTagCondition,
  etagOfJson,
  type FileAnswer,
  type FileUpload,
  matchesWeakly,
  refusesCaller,
} from '@music/api-router';
import { chargeBudget } from '../http/budget-edge';
import { conditionOf } from '../http/conditions';
import type { Cors } from '../http/cors';
import { answerFailure, type Exchange, type InternalErrorLog } from '../http/exchange';
import { sendFile } from '../http/file-answer';
import { fail, JSON_TYPE, readBody, sendBody, sendError, sendNoContent } from '../http/http';
import { labelRequest } from '../http/operation-label';
import type { CreateContext } from '../http/request-context';
import type { TrustProxy } from '../http/trust-proxy';
import type { Budgets } from '../runtime/budgets';
import {
  answerOf,
  beginIdempotent,
  type Claimed,
  type Idempotency,
  type Replay,
  sendReplay,
} from './idempotency';
import { type ListPagination, paginationLinks, publicOrigin } from './links';
import {
  allowed,
  type Candidate,
  candidatesFor,
  compile,
  inputReader,
  queryAware,
  routeIndex,
} from './rest-routes';

/**
 * `/v1` is served by this small dispatcher over the operations (`@music/api-router`'s
 * procedures seam), reading the same route meta and traits the OpenAPI document is generated
 * from; trpc-to-openapi's own HTTP handler is not used (docs/decisions.md says why: its answers
 * break the contract in several places and it costs ~60% more CPU per request).
 *
 * A request goes through named steps, in the order the contract checks them:
 * route (404, 405, OPTIONS) → admit (body size 413, the caller's budget 429, its Idempotency-Key)
 * → conditions (If-Match / If-None-Match) → call (inside the procedure: the caller 401 before
 * the input is read, then JSON 400, validation 400/422, the service 404/403/409...) → respond
 * (status, ETag, Location, Link, 304, the key's stored answer).
 */

export interface RestHandlerOptions {
  /** Resolves the caller and builds the procedure context. */
  createContext: CreateContext;
  onInternalError: InternalErrorLog;
  /** Whose `X-Forwarded-Proto` is believed (the scheme of pagination links). */
  trustProxy: TrustProxy;
  cors: Cors;
  /** Request budgets; without them nothing is counted. */
  budgets?: Budgets | undefined;
  /** Idempotency-Key records; without them the header is ignored. */
  idempotency?: Idempotency | undefined;
}

/** A request past the route step: its operation, its method (HEAD read as GET) and parameters. */
interface Routed extends Candidate {
  method: string;
}

export function createRestHandler(options: RestHandlerOptions) {
  const routes = compile();
  if (routes.some((r) => r.segments[0]!.startsWith('{'))) throw new Error('A route starts with a parameter');
  const index = routeIndex(routes);

  /** The operation the method and path name; answers 404, 405 and OPTIONS itself (undefined). */
  function route(exchange: Exchange): Routed | undefined {
    const { req, res, url, headers } = exchange;
    // HEAD is GET without the body (Node drops it): same status, same headers.
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const candidates = candidatesFor(index, exchange.route as string[]);
    if (candidates.length === 0) throw fail('NOT_FOUND', `No route ${url.pathname}`);
    labelRequest(res, { route: `/v1${candidates[0]!.route.route.path}` });
    // Only the answers that list the path's methods (OPTIONS, 405) need them.
    const allow = () => allowed(candidates.map((c) => c.route.route.method));
    if (method === 'OPTIONS') {
      // No caller needed: browsers send preflights without credentials.
      const methods = allow();
      sendNoContent(res, { ...headers, Allow: methods, ...options.cors.preflightFor(req, methods) });
      return undefined;
    }
    const found = candidates.find((c) => c.route.route.method === method);
    if (!found) {
      sendError(res, fail('METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}`), {
        ...headers,
        Allow: allow(),
      });
      return undefined;
    }
    labelRequest(res, { operation: found.route.operation.path, route: `/v1${found.route.route.path}` });
    return { ...found, method };
  }

  /**
   * The caller is known: its budget (429, RateLimit headers), then its Idempotency-Key. Both are
   * synchronous on the common path (a budget decided in memory, no key): a promise only when
   * there is something to wait for, which saves the hottest route two turns.
   */
  function admit(
    exchange: Exchange,
    routed: Routed,
    ctx: Context,
    raw: Buffer,
  ): undefined | Replay | Claimed | Promise<Replay | Claimed | undefined> {
    const { operation } = routed.route;
    const keyOf = () => beginIdempotent(options.idempotency, exchange.req, ctx, operation, exchange.url, raw);
    const charged = chargeBudget(options.budgets, ctx, operation, exchange.headers);
    return charged ? charged.then(keyOf) : keyOf();
  }

  /**
   * The conditional headers, read into the context the procedure's middleware copies (tRPC
   * builds a new context object per middleware: a later assignment would not reach the
   * service). A malformed one is a 400 on every operation, with input or without (`/auth/me`),
   * but only for a caller who gets past the caller check: the others get their 401 first.
   * Returns a GET's If-None-Match, which the respond step compares with the answer's ETag.
   */
  function conditions(exchange: Exchange, routed: Routed, ctx: Context): EntityTagCondition | undefined {
    try {
      if (routed.method === 'GET') return conditionOf(exchange.req, 'if-none-match');
      const ifMatch = conditionOf(exchange.req, 'if-match');
      if (ifMatch !== undefined) ctx.ifMatch = ifMatch;
    } catch (malformed) {
      if (!refusesCaller(routed.route.operation.isPublic, ctx)) throw malformed;
    }
    return undefined;
  }

  /** The answer, by the operation's traits; a key's answer is stored for its repeats. */
  async function respond(
    exchange: Exchange,
    routed: Routed,
    output: unknown,
    ifNoneMatch: EntityTagCondition | undefined,
    keyed: Claimed | undefined,
  ) {
    const { req, res, url, headers } = exchange;
    const { route: meta, operation } = routed.route;
    const status = meta.status ?? 200;
    if (operation.traits.download) {
      return sendFile(res, output as FileAnswer, headers, (error) =>
        options.onInternalError(exchange.requestId, error),
      );
    }
    // A 204, and a 202 of an operation that answers nothing (its work goes on in the background).
    if (status === 204 || (status === 202 && output === undefined)) {
      await keyed?.complete(answerOf(status, headers, null));
      return sendNoContent(res, headers, status);
    }
    // Serialized once, for the answer, its ETag and a replay of its Idempotency-Key.
    const payload = JSON.stringify(output);
    if (operation.traits.located) headers.Location = `/v1${meta.path}/${(output as { id: string }).id}`;
    if (operation.traits.record) {
      // Strong, the tag of the body itself: no query. Clients may keep the record and
      // revalidate it (private: it was answered to this caller).
      const etag = etagOfJson(payload);
      headers.ETag = etag;
      headers['Cache-Control'] = 'private, no-cache';
      if (ifNoneMatch !== undefined && matchesWeakly(ifNoneMatch, etag)) {
        res.writeHead(304, headers);
        return res.end();
      }
    } else if (operation.traits.list) {
      const { pagination } = output as { pagination: ListPagination };
      headers.Link = paginationLinks(
        `${publicOrigin(req, options.trustProxy)}${url.pathname}`,
        url.searchParams,
        pagination,
      );
      // Weak, of the body as sent: a list is not a resource that can be written back, so the tag
      // only revalidates (If-None-Match). `no-cache` (not `no-store`): a client may keep the page
      // and ask again with its tag, and get a 304 without a body while nothing in it changed;
      // `private`: it was answered to this caller (what a list holds depends on who asks).
      const etag = `W/${etagOfJson(payload)}`;
      headers.ETag = etag;
      headers['Cache-Control'] = 'private, no-cache';
      if (ifNoneMatch !== undefined && matchesWeakly(ifNoneMatch, etag.slice(2))) {
        res.writeHead(304, headers);
        return res.end();
      }
    }
    await keyed?.complete(answerOf(status, headers, payload));
    sendBody(res, status, payload, { 'Content-Type': JSON_TYPE, ...headers });
  }

  async function handle(exchange: Exchange): Promise<void> {
    try {
      const routed = route(exchange);
      if (!routed) return;
      const { upload } = routed.route;
      // A file (an import) is handed over unread: its service takes it as it arrives.
      const raw = upload ? Buffer.alloc(0) : await readBody(exchange.req);
      const ctx = await options.createContext(exchange.req, exchange.requestId);
      const admitted = admit(exchange, routed, ctx, raw);
      const keyed = admitted instanceof Promise ? await admitted : admitted;
      if (keyed?.kind === 'replay') return sendReplay(exchange.res, keyed, exchange.headers);
      let output: unknown;
      let ifNoneMatch: EntityTagCondition | undefined;
      try {
        ifNoneMatch = conditions(exchange, routed, ctx);
        const { req, url } = exchange;
        const file = upload ? fileOf(req) : undefined;
        const read = inputReader(
          routed,
          routed.method,
          raw,
          req.headers['content-type'],
          url.searchParams,
          file,
        );
        output = await routed.route.operation.call(ctx, read);
      } catch (error) {
        // The key is free again: a failed request may be retried with it.
        await keyed?.release();
        // An upload's other input is its query string: a bad one is a 400, as on a read.
        throw queryAware(error, upload ? 'GET' : routed.method);
      }
      await respond(exchange, routed, output, ifNoneMatch, keyed);
    } catch (error) {
      answerFailure(exchange, error, options.onInternalError);
    }
  }

  return { handle, routes };
}

/** The request's body as a file: its media type, its declared length, its bytes as they come. */
function fileOf(req: IncomingMessage): FileUpload {
  const declared = req.headers['content-length'];
  return {
    type: req.headers['content-type'] ?? '',
    length: declared !== undefined && /^\d{1,15}$/.test(declared) ? Number(declared) : undefined,
    stream: req,
  };
}
