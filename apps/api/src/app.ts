import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, appErrorOf, type Deps } from '@music/api-router';
import type { Database } from '@music/db';
import { uuidv7 } from '@music/db';
import { fail, requestIdOf, sendError } from './http';
import { createOperations } from './operations';
import { requestContext } from './request-context';
import { createRestHandler } from './rest';
import { createTrpcTransport } from './trpc-transport';
import type { TrustProxy } from './trust-proxy';

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
 * The whole HTTP surface as one request listener, routing by version: `/trpc` to the RPC
 * transport, `/v1` to its operations (health, document, docs) or the REST dispatcher. Knows
 * nothing about ports or processes.
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
    deps.log.error('request failed', {
      requestId,
      error: error instanceof Error ? error.stack : String(error),
    });

  const trpc = createTrpcTransport({ createContext, headers: baseHeaders, log: deps.log });
  const operation = createOperations({ database: options.database, isDraining: options.isDraining });
  const rest = createRestHandler({
    createContext,
    headers: baseHeaders,
    onInternalError: (e, id) => logFailure(id, e),
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

    try {
      if (version === 'trpc') return await trpc(req, res, route.join('/'), url, requestId);
      if (
        version === undefined ||
        !/^v\d+$/.test(version) ||
        (version !== 'v1' && !deprecated.has(version))
      ) {
        return sendError(res, fail('NOT_FOUND', `No route ${url.pathname}`), headers);
      }
      if (deprecated.has(version)) headers['X-API-Deprecated'] = 'true';
      if (await operation(route.join('/'), req.method, res, headers)) return;
      await rest.handle(req, res, url, route, requestId);
    } catch (error) {
      const { error: app, isInternal } = appErrorOf(error);
      if (isInternal) logFailure(requestId, error);
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
