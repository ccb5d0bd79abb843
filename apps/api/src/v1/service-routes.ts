import type { ServerResponse } from 'node:http';
import { createOpenApiDocument, etagOfJson, matchesWeakly } from '@music/api-router';
import type { Database } from '@music/db';
import { conditionOf } from '../http/conditions';
import type { Exchange } from '../http/exchange';
import { fail, JSON_TYPE, sendBody, sendError, sendJson, sendNoContent } from '../http/http';
import { labelRequest } from '../http/operation-label';
import { DOCS_HTML, docsAsset } from './docs';

const ROUTES = new Set(['health', 'health/live', 'openapi.json', 'docs']);
const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * The reference page runs a script in the browsers of the people reading it: it loads only its
 * own files (no inline script: init.js is a file), fetches only this origin (the document, "Try it
 * out"), and no other site may frame it (clickjacking). Swagger UI sets style attributes, hence
 * the inline styles; its icons are data: URLs.
 */
const DOCS_HEADERS = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
};

export interface ServiceRoutesOptions {
  database: Pick<Database, 'ping'>;
  /** True once the instance was told to stop: readiness answers 503 while it drains. */
  isDraining?: (() => boolean) | undefined;
}

/**
 * The `/v1` routes that are not procedures: readiness and liveness, the OpenAPI document and
 * its browsable page. Resolves false for any other route.
 */
export function createServiceRoutes(options: ServiceRoutesOptions) {
  let openApi: { json: string; etag: string } | undefined;
  /** What the last readiness check found: a draining instance answers at once, without asking. */
  let lastDatabase: 'ok' | 'unavailable' = 'ok';

  async function readiness(res: ServerResponse, headers: Record<string, string>) {
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

  function send(
    res: ServerResponse,
    headers: Record<string, string>,
    asset: { type: string; body: string | Buffer },
    cacheControl = 'no-cache',
  ) {
    sendBody(res, 200, asset.body, { ...headers, 'Cache-Control': cacheControl, 'Content-Type': asset.type });
  }

  /** The document, with its ETag: a client revalidates it with If-None-Match and gets 304. */
  function document({ req, res, headers }: Exchange) {
    if (!openApi) {
      const doc = createOpenApiDocument();
      const json = JSON.stringify(doc);
      openApi = { json, etag: etagOfJson(json) };
    }
    // A malformed one is the same 400 as on any operation (the one error path answers it).
    const condition = conditionOf(req, 'if-none-match');
    const tagged = { ...headers, ETag: openApi.etag };
    if (condition && matchesWeakly(condition, openApi.etag)) {
      res.writeHead(304, { ...tagged, 'Cache-Control': 'no-cache' });
      return res.end();
    }
    send(res, tagged, { type: JSON_TYPE, body: openApi.json });
  }

  return async function serviceRoute(
    exchange: Exchange,
    preflight: (methods: string) => Record<string, string> = () => ({}),
  ): Promise<boolean> {
    const { res, headers } = exchange;
    const method = exchange.req.method;
    const route = exchange.route.join('/');
    if (!ROUTES.has(route) && !route.startsWith('docs/')) return false;
    const name = route.startsWith('docs/') ? 'docs' : route;
    labelRequest(res, {
      operation: `service.${name}`,
      route: `/v1/${route.startsWith('docs/') ? 'docs/{asset}' : route}`,
    });
    if (method === 'OPTIONS') {
      sendNoContent(res, { ...headers, Allow: ALLOW, ...preflight(ALLOW) });
      return true;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      sendError(res, fail('METHOD_NOT_ALLOWED', `${method} is not allowed here`), {
        ...headers,
        Allow: ALLOW,
      });
      return true;
    }
    if (route === 'health') await readiness(res, headers);
    // Liveness: the process answers, whatever the database or a drain.
    else if (route === 'health/live') sendJson(res, 200, { status: 'ok' }, headers);
    else if (route === 'openapi.json') document(exchange);
    else if (route === 'docs') {
      send(res, { ...headers, ...DOCS_HEADERS }, { type: 'text/html; charset=utf-8', body: DOCS_HTML });
    } else {
      const asset = docsAsset(route.slice('docs/'.length));
      if (!asset) throw fail('NOT_FOUND', `No route ${exchange.url.pathname}`);
      else send(res, { ...headers, ...DOCS_HEADERS }, asset, 'public, max-age=3600');
    }
    return true;
  };
}
