import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Deps, describeError } from '@music/api-router';
import type { Database } from '@music/db';
import { uuidv7 } from '@music/db';
import { createCors } from './http/cors';
import { answerFailure, type Exchange } from './http/exchange';
import { fail, requestIdOf, sendError } from './http/http';
import { createMetricsRoute, type MetricsRouteOptions } from './http/metrics-route';
import { requestContext } from './http/request-context';
import type { TrustProxy } from './http/trust-proxy';
import type { Budgets } from './runtime/budgets';
import { createTrpcTransport } from './trpc/trpc-transport';
import type { Idempotency } from './v1/idempotency';
import { createRestHandler } from './v1/rest';
import { createServiceRoutes } from './v1/service-routes';

export interface AppOptions {
  deps: Deps;
  database: Pick<Database, 'ping'>;
  trustProxy: TrustProxy;
  /** True once the instance was told to stop: readiness answers 503 while it drains. */
  isDraining?: () => boolean;
  /** Versions still served but marked deprecated (`X-API-Deprecated: true`); none today. */
  deprecatedVersions?: string[];
  /** Origins browsers may call `/v1` from (CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
  /** Request budgets of `/v1` operations (version 1.1); none: nothing is counted. */
  budgets?: Budgets;
  /** Idempotency-Key records of `/v1` creates (version 1.1); none: the header is ignored. */
  idempotency?: Idempotency;
  /** `GET /metrics` behind its token (METRICS_TOKEN); none: that path is a 404 like any unknown one. */
  metrics?: MetricsRouteOptions;
}

/**
 * The whole HTTP surface as one request listener, routing by version: `/trpc` to the RPC
 * transport, `/v1` to the service's own routes (health, document, docs) or the REST dispatcher.
 * Every answer starts from the same headers (request id, no caching, a deprecated version's
 * mark). Knows nothing about ports or processes.
 */
export function createApp(options: AppOptions) {
  const { deps } = options;
  const deprecated = new Set(options.deprecatedVersions ?? []);
  const createContext = requestContext(deps, options.trustProxy);
  const baseHeaders = (requestId: string): Record<string, string> => ({
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
  });
  const logFailure = (requestId: string, error: unknown) =>
    deps.log.error('request failed', { requestId, error: describeError(error) });

  const trpc = createTrpcTransport({ createContext, onInternalError: logFailure, budgets: options.budgets });
  const serviceRoute = createServiceRoutes({ database: options.database, isDraining: options.isDraining });
  const cors = createCors(options.corsOrigins ?? []);
  const metrics = options.metrics ? createMetricsRoute(options.metrics) : undefined;
  const rest = createRestHandler({
    createContext,
    onInternalError: logFailure,
    trustProxy: options.trustProxy,
    cors,
    budgets: options.budgets,
    idempotency: options.idempotency,
  });

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
    const [version, ...route] = parts;
    const exchange: Exchange = { req, res, url, route, requestId, headers };

    try {
      if (version === 'trpc') return await trpc(exchange);
      if (version === 'metrics' && route.length === 0 && metrics) return await metrics(exchange);
      if (
        version === undefined ||
        !/^v\d+$/.test(version) ||
        (version !== 'v1' && !deprecated.has(version))
      ) {
        throw fail('NOT_FOUND', `No route ${url.pathname}`);
      }
      if (deprecated.has(version)) headers['X-API-Deprecated'] = 'true';
      Object.assign(headers, cors.headersFor(req));
      if (await serviceRoute(exchange, (methods) => cors.preflightFor(req, methods))) return;
      await rest.handle(exchange);
    } catch (error) {
      answerFailure(exchange, error, logFailure);
    }
  };
}
