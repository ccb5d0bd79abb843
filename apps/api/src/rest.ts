import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AppError,
  appErrorOf,
  etagOfJson,
  matchesWeakly,
  type Operation,
  operations,
  type RouteMeta,
  refusesCaller,
} from '@music/api-router';
import { chargeBudget } from './budget-edge';
import type { Budgets } from './budgets';
import { conditionOf } from './conditions';
import type { Cors } from './cors';
import { fail, JSON_TYPE, readBody, sendBody, sendError, sendNoContent } from './http';
import { answerOf, beginIdempotent, type Idempotency, sendReplay } from './idempotency';
import { paginationLinks, publicOrigin } from './links';
import type { CreateContext } from './request-context';
import type { TrustProxy } from './trust-proxy';

/**
 * `/v1` is served by this small dispatcher over the operations (`@music/api-router`'s
 * procedures seam), reading the same `meta` the OpenAPI document is generated from;
 * trpc-to-openapi's own HTTP handler is not used (docs/decisions.md says why: its answers break
 * the contract in several places and it costs ~60% more CPU per request).
 * The contract's check order: route (404/405) and body size (413) here; then, inside the
 * procedure, the caller (401, its middleware) before the input is read, so JSON (400) and
 * validation (400/422) come next, then the service (404/403/409...).
 */

interface CompiledRoute {
  route: RouteMeta;
  operation: Operation;
  segments: string[];
  params: string[];
  literalCount: number;
  queryFields: Set<string>;
  hasBody: boolean;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function compile(): CompiledRoute[] {
  return operations.flatMap((operation) => {
    const { route } = operation;
    if (!route) return [];
    const segments = route.path.split('/').slice(1);
    const params = segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1));
    const fields = operation.inputFields.filter((key) => !params.includes(key));
    return [
      {
        route,
        operation,
        segments,
        params,
        literalCount: segments.length - params.length,
        queryFields: new Set(BODY_METHODS.has(route.method) ? [] : fields),
        hasBody: BODY_METHODS.has(route.method) && fields.length > 0,
      },
    ];
  });
}

function match(route: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = route.segments[i]!;
    const part = parts[i]!;
    if (segment.startsWith('{')) params[segment.slice(1, -1)] = part;
    else if (segment !== part) return undefined;
  }
  return params;
}

/**
 * The routes by segment count and first segment (every route starts with a literal), most
 * literal segments first: a request looks at the few routes of its own shape, not all of them.
 */
function routeIndex(routes: CompiledRoute[]): Map<string, CompiledRoute[]> {
  const index = new Map<string, CompiledRoute[]>();
  for (const route of [...routes].sort((a, b) => b.literalCount - a.literalCount)) {
    const key = `${route.segments.length}/${route.segments[0]}`;
    index.set(key, [...(index.get(key) ?? []), route]);
  }
  return index;
}

interface Candidate {
  route: CompiledRoute;
  params: Record<string, string>;
}

function candidatesFor(index: Map<string, CompiledRoute[]>, parts: string[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const route of index.get(`${parts.length}/${parts[0]}`) ?? []) {
    const params = match(route, parts);
    if (params) candidates.push({ route, params });
  }
  return candidates;
}

const INTEGER = /^-?\d{1,16}$/;

/** Query strings become the procedure's input: integers for number fields, one value per key. */
function queryInput(route: CompiledRoute, search: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of new Set(search.keys())) {
    // Unknown query parameters are ignored (only JSON bodies are strict, per the contract).
    if (!route.queryFields.has(key)) continue;
    const values = search.getAll(key);
    if (values.length > 1) throw fail('BAD_REQUEST', `Query parameter '${key}' was given more than once`);
    const value = values[0]!;
    input[key] = route.operation.numberFields.has(key) && INTEGER.test(value) ? Number(value) : value;
  }
  return input;
}

function parseJsonBody(raw: Buffer, contentType: string | undefined): Record<string, unknown> | undefined {
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw fail('BAD_REQUEST', 'The body must be JSON (Content-Type: application/json)');
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw fail('BAD_REQUEST', 'The body is not valid UTF-8 JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fail('BAD_REQUEST', 'The body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

export interface RestHandlerOptions {
  /** Resolves the caller and builds the procedure context. */
  createContext: CreateContext;
  /** Logs a failure nobody expected (the client gets a 500 that reveals nothing). */
  onInternalError(requestId: string, error: unknown): void;
  /** Whose `X-Forwarded-Proto` is believed (the scheme of pagination links). */
  trustProxy: TrustProxy;
  cors: Cors;
  /** Request budgets (version 1.1); without them nothing is counted. */
  budgets?: Budgets | undefined;
  /** Idempotency-Key records (version 1.1); without them the header is ignored. */
  idempotency?: Idempotency | undefined;
}

/** The methods a path answers, as `Allow` lists them: HEAD wherever GET is, OPTIONS always. */
function allowed(methods: Iterable<string>): string {
  const list = [...new Set(methods)];
  if (list.includes('GET')) list.splice(list.indexOf('GET') + 1, 0, 'HEAD');
  return [...list, 'OPTIONS'].join(', ');
}

export function createRestHandler(options: RestHandlerOptions) {
  const routes = compile();
  if (routes.some((r) => r.segments[0]!.startsWith('{'))) throw new Error('A route starts with a parameter');
  const index = routeIndex(routes);

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    parts: string[],
    requestId: string,
    headers: Record<string, string>,
  ) {
    try {
      // HEAD is GET without the body (Node drops it): same status, same headers.
      const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
      const candidates = candidatesFor(index, parts);
      if (candidates.length === 0) throw fail('NOT_FOUND', `No route ${url.pathname}`);
      // Only the answers that list the path's methods (OPTIONS, 405) need them.
      const allow = () => allowed(candidates.map((c) => c.route.route.method));
      if (method === 'OPTIONS') {
        // No caller needed: browsers send preflights without credentials (version 1.1).
        const methods = allow();
        return sendNoContent(res, { ...headers, Allow: methods, ...options.cors.preflightFor(req, methods) });
      }
      const found = candidates.find((c) => c.route.route.method === method);
      if (!found) {
        sendError(res, fail('METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}`), {
          ...headers,
          Allow: allow(),
        });
        return;
      }
      const { route, params } = found;

      const raw = await readBody(req);
      const ctx = await options.createContext(req, requestId);
      // The caller is known: its budget (429, RateLimit headers), then its Idempotency-Key.
      // Both are synchronous on the common path (a budget decided in memory, no key): awaited
      // only when they return a promise, which saves the hottest route two turns.
      const charged = chargeBudget(options.budgets, ctx, route.operation, headers);
      if (charged) await charged;
      const begun = beginIdempotent(options.idempotency, req, ctx, route.operation, url, raw);
      const keyed = begun && (await begun);
      if (keyed?.kind === 'replay') return sendReplay(res, keyed, headers);
      // The conditional headers are read now, into the context the procedure's middleware copies
      // (tRPC builds a new context object per middleware: a later assignment would not reach the
      // service). A malformed one is a 400 on every operation, with input or without (`/auth/me`),
      // but only for a caller who gets past the caller check: the others get their 401 first.
      let ifNoneMatch: ReturnType<typeof conditionOf>;
      try {
        if (method === 'GET') ifNoneMatch = conditionOf(req, 'if-none-match');
        else {
          const ifMatch = conditionOf(req, 'if-match');
          if (ifMatch !== undefined) ctx.ifMatch = ifMatch;
        }
      } catch (malformed) {
        if (!refusesCaller(route.operation.isPublic, ctx)) {
          await keyed?.release();
          throw malformed;
        }
      }
      const readInput = async (): Promise<Record<string, unknown>> => {
        if (route.hasBody) {
          const body = parseJsonBody(raw, req.headers['content-type']);
          if (body === undefined) throw fail('BAD_REQUEST', 'A JSON object body is required');
          const clashes = Object.keys(body).filter((key) => route.params.includes(key));
          if (clashes.length > 0) {
            throw new AppError('VALIDATION_FAILED', 'The request body failed validation', {
              errors: clashes.map((field) => ({ field, message: 'Unknown field' })),
            });
          }
          return { ...body, ...params };
        }
        // Operations without body fields (logout, song links) ignore whatever body is sent.
        if (BODY_METHODS.has(method)) return { ...params };
        return { ...queryInput(route, url.searchParams), ...params };
      };

      let output: unknown;
      try {
        output = await route.operation.call(ctx, readInput);
      } catch (error) {
        await keyed?.release();
        throw queryAware(appErrorOf(error).error, method);
      }

      const status = route.route.status ?? 200;
      // A 204, and a 202 of an operation that answers nothing (its work goes on in the background).
      if (status === 204 || (status === 202 && output === undefined)) {
        await keyed?.complete(answerOf(status, headers, null));
        return sendNoContent(res, headers, status);
      }
      // Serialized once, for the answer, its ETag and a replay of its Idempotency-Key.
      const payload = JSON.stringify(output);
      const { traits } = route.operation;
      if (traits.record) {
        // Strong, the tag of the body itself: no query. Clients may keep the record and
        // revalidate it (private: it was answered to this caller).
        const etag = etagOfJson(payload);
        headers.ETag = etag;
        headers['Cache-Control'] = 'private, no-cache';
        if (status === 201) headers.Location = `/v1${route.route.path}/${(output as { id: string }).id}`;
        if (ifNoneMatch !== undefined && matchesWeakly(ifNoneMatch, etag)) {
          res.writeHead(304, headers);
          return res.end();
        }
      } else if (traits.list) {
        headers.Link = paginationLinks(
          `${publicOrigin(req, options.trustProxy)}${url.pathname}`,
          url.searchParams,
          (output as { pagination: { page: number; limit: number; total: number } }).pagination,
        );
      }
      await keyed?.complete(answerOf(status, headers, payload));
      sendBody(res, status, payload, { 'Content-Type': JSON_TYPE, ...headers });
    } catch (error) {
      const { error: app, isInternal } = appErrorOf(error);
      if (isInternal) options.onInternalError(requestId, error);
      if (app.code === 'PAYLOAD_TOO_LARGE') headers.Connection = 'close';
      sendError(res, app, headers);
    }
  }

  return { handle, routes };
}

/** Validation of a GET/DELETE input concerns its query string: that is a 400, not a 422. */
function queryAware(error: AppError, method: string): AppError {
  if (error.code !== 'VALIDATION_FAILED' || BODY_METHODS.has(method)) return error;
  const detail = (error.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ');
  return new AppError('BAD_REQUEST', `Invalid query parameters (${detail})`);
}
