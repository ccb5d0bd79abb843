import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AppError,
  appRouter,
  authenticate,
  type Context,
  callProcedure,
  createContextInner,
  createOpenApiDocument,
  type Deps,
  procedureKind,
  toAppError,
} from '@music/api-router';
import type { Database } from '@music/db';
import { uuidv7 } from '@music/db';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { DOCS_HTML, docsAsset } from './docs';
import { fail, MAX_BODY_BYTES, requestIdOf, sendError, sendJson } from './http';
import { createRestHandler } from './rest';
import { clientAddressOf, type TrustProxy } from './trust-proxy';

export interface AppOptions {
  deps: Deps;
  database: Pick<Database, 'ping'>;
  trustProxy: TrustProxy;
  /** True once the instance was told to stop: readiness answers 503 while it drains. */
  isDraining?: () => boolean;
  /** Versions still served but marked deprecated (`X-API-Deprecated: true`); none today. */
  deprecatedVersions?: string[];
}

/**
 * The whole HTTP surface as one request listener: `/v1` REST, `/trpc` RPC, the OpenAPI
 * document, the docs page and the health check. Knows nothing about ports or processes.
 */
export function createApp(options: AppOptions) {
  const { deps } = options;
  const deprecated = new Set(options.deprecatedVersions ?? []);
  let openApiJson: string | undefined;

  async function createContext(req: IncomingMessage, requestId: string) {
    const header = req.headers.authorization;
    const authentication = await authenticate(deps, typeof header === 'string' ? header : undefined);
    const ctx: Context = createContextInner(deps, {
      actor: authentication.status === 'ok' ? authentication.actor : null,
      clientAddress: clientAddressOf(req, options.trustProxy),
      requestId,
    });
    return { ctx, authStatus: authentication.status };
  }

  function baseHeaders(requestId: string): Record<string, string> {
    return { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
  }

  const rest = createRestHandler({
    createContext,
    headers: baseHeaders,
    onInternalError: (error, requestId) =>
      deps.log.error('request failed', {
        requestId,
        error: error instanceof Error ? error.stack : String(error),
      }),
  });

  /** What the last readiness check found: a draining instance answers at once, without asking. */
  let lastDatabase: 'ok' | 'unavailable' = 'ok';

  /** Readiness: may a balancer send this instance requests? */
  async function health(res: ServerResponse, headers: Record<string, string>) {
    const unready = { ...headers, 'Retry-After': '5' };
    if (options.isDraining?.()) {
      sendJson(res, 503, { status: 'draining', database: lastDatabase }, unready);
      return;
    }
    try {
      await options.database.ping(2_000);
      lastDatabase = 'ok';
      sendJson(res, 200, { status: 'ok', database: 'ok' }, headers);
    } catch {
      lastDatabase = 'unavailable';
      sendJson(res, 503, { status: 'degraded', database: 'unavailable' }, unready);
    }
  }

  /**
   * A successful plain query (`GET /trpc/<query>?input=…`, not batched, not streamed) is
   * answered here, through the same procedure (`callProcedure`), with the exact body and
   * headers tRPC's handler writes: that handler converts every request into a Fetch `Request`
   * and back, which doubled the CPU of a song detail on `/trpc` compared with `/v1` (see the
   * README's performance section). A query that fails is handed to tRPC's handler, which runs
   * it again and formats the error: queries change nothing, and errors keep one formatter.
   */
  async function trpcQuery(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    url: URL,
    requestId: string,
  ): Promise<boolean> {
    if (req.method !== 'GET' || procedureKind(path) !== 'query') return false;
    if (url.searchParams.has('batch') || req.headers['trpc-accept'] !== undefined) return false;
    if (req.headers.accept?.includes('application/jsonl')) return false;
    const raw = url.searchParams.get('input');
    let input: unknown;
    try {
      input = raw === null ? undefined : JSON.parse(raw);
    } catch {
      return false;
    }
    let data: unknown;
    try {
      const { ctx } = await createContext(req, requestId);
      data = await callProcedure(ctx, path, input);
    } catch {
      return false;
    }
    sendJson(
      res,
      200,
      { result: { data } },
      {
        ...baseHeaders(requestId),
        'Content-Type': 'application/json',
        Vary: 'trpc-accept, accept',
      },
    );
    return true;
  }

  function trpc(req: IncomingMessage, res: ServerResponse, path: string, requestId: string) {
    return nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path,
      // One HTTP request is one call: batching would let one request make many login attempts.
      allowBatching: false,
      maxBodySize: MAX_BODY_BYTES,
      createContext: async () => (await createContext(req, requestId)).ctx,
      responseMeta({ errors }) {
        // Every answer here is JSON; tRPC's own early failures (an unsupported content type, a
        // refused batch) would otherwise go out as text/plain.
        const headers: Record<string, string> = {
          ...baseHeaders(requestId),
          'Content-Type': 'application/json',
        };
        const retryAfter = errors.map((e) => toAppError(e).error.retryAfter).find((r) => r !== undefined);
        if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
        return { headers };
      },
      onError({ error }) {
        const mapped = toAppError(error);
        if (mapped.isInternal)
          deps.log.error('rpc failed', { requestId, error: error.cause?.stack ?? error.stack });
      },
    });
  }

  return async function handler(
    req: IncomingMessage,
    res: ServerResponse,
    requestId = requestIdOf(req, uuidv7),
  ): Promise<void> {
    const headers = baseHeaders(requestId);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return sendError(res, fail('BAD_REQUEST', 'Malformed request target'), headers);
    }
    let parts: string[];
    try {
      parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
    } catch {
      return sendError(res, fail('NOT_FOUND', 'Malformed path'), headers);
    }
    if (parts.at(-1) === '' && parts.length > 1) parts.pop();
    const [version, ...rest_] = parts;

    try {
      if (version === 'trpc') {
        const path = rest_.join('/');
        if (await trpcQuery(req, res, path, url, requestId)) return;
        await trpc(req, res, path, requestId);
        return;
      }
      if (
        version === undefined ||
        !/^v\d+$/.test(version) ||
        (version !== 'v1' && !deprecated.has(version))
      ) {
        return sendError(res, fail('NOT_FOUND', `No route ${url.pathname}`), headers);
      }
      if (deprecated.has(version)) headers['X-API-Deprecated'] = 'true';

      const route = rest_.join('/');
      const isGet = req.method === 'GET' || req.method === 'HEAD';
      if (
        route === 'health' ||
        route === 'health/live' ||
        route === 'openapi.json' ||
        route === 'docs' ||
        route.startsWith('docs/')
      ) {
        if (!isGet) {
          return sendError(res, fail('METHOD_NOT_ALLOWED', `${req.method} is not allowed here`), {
            ...headers,
            Allow: 'GET',
          });
        }
        if (route === 'health') return health(res, headers);
        // Liveness: the process answers, whatever the database or a drain.
        if (route === 'health/live') return sendJson(res, 200, { status: 'ok' }, headers);
        if (route === 'openapi.json') {
          openApiJson ??= JSON.stringify(createOpenApiDocument());
          res.writeHead(200, {
            ...headers,
            'Cache-Control': 'no-cache',
            'Content-Type': 'application/json; charset=utf-8',
          });
          res.end(openApiJson);
          return;
        }
        if (route === 'docs') {
          res.writeHead(200, {
            ...headers,
            'Cache-Control': 'no-cache',
            'Content-Type': 'text/html; charset=utf-8',
          });
          res.end(DOCS_HTML);
          return;
        }
        const asset = docsAsset(route.slice('docs/'.length));
        if (!asset) return sendError(res, fail('NOT_FOUND', `No route ${url.pathname}`), headers);
        res.writeHead(200, {
          ...headers,
          'Cache-Control': 'public, max-age=3600',
          'Content-Type': asset.type,
        });
        res.end(asset.body);
        return;
      }
      await rest.handle(req, res, url, rest_, requestId);
    } catch (error) {
      const { error: app, isInternal } = toAppError(error);
      if (isInternal)
        deps.log.error('request failed', { requestId, error: error instanceof Error ? error.stack : error });
      if (!res.headersSent)
        sendError(
          res,
          app instanceof AppError ? app : fail('INTERNAL_SERVER_ERROR', 'Internal server error'),
          headers,
        );
      else res.destroy();
    }
  };
}
