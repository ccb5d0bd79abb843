import { IDEMPOTENT_ROUTES } from './generated/routes.js';

/**
 * A request as the client's layers see it: its body read once, so that a retry, a resend after a
 * token refresh or a revalidation can send it again.
 */
export interface Outgoing {
  url: URL;
  method: string;
  headers: Headers;
  body: ArrayBuffer | undefined;
  signal: AbortSignal | undefined;
}

/** Sends one request and answers its response. */
export type Send = (request: Outgoing) => Promise<Response>;
/** One concern of the client (auth, retries, ETags...) around the layers below it. */
export type Layer = (next: Send) => Send;

/** Reads a `Request` (as openapi-fetch makes it) into an `Outgoing`. */
export async function outgoingOf(request: Request): Promise<Outgoing> {
  const body = request.body === null ? undefined : await request.arrayBuffer();
  return {
    url: new URL(request.url),
    method: request.method.toUpperCase(),
    headers: new Headers(request.headers),
    body,
    signal: request.signal,
  };
}

/** The bottom layer: `fetch`, each attempt bounded by `timeoutMs` and by the caller's signal. */
export function sender(fetchImpl: (request: Request) => Promise<Response>, timeoutMs: number): Send {
  return (request) => {
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (request.signal) signals.push(request.signal);
    return fetchImpl(
      new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.any(signals),
      }),
    );
  };
}

/** The layers, outermost first, around `bottom`. */
export function compose(layers: Layer[], bottom: Send): Send {
  return layers.reduceRight<Send>((next, layer) => layer(next), bottom);
}

/** `/playlists/{playlistId}/songs` as a pattern matching `/playlists/<anything>/songs`. */
function templatePattern(template: string): RegExp {
  const escaped = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

const IDEMPOTENT = IDEMPOTENT_ROUTES.map((route) => {
  const [method = '', template = ''] = route.split(' ');
  return { method, pattern: templatePattern(template) };
});

/**
 * The path of `url` below the API's base (`/v1`), as the document's templates spell it:
 * `https://host/v1/songs/1` with base `https://host/v1` is `/songs/1`.
 */
export function apiPath(url: URL, base: URL): string {
  const prefix = base.pathname.replace(/\/+$/, '');
  return url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
}

/**
 * Every call of an operation that takes an `Idempotency-Key` (the creations) carries one: a new
 * UUID per call, set here, above the retries, so every retry of that call sends the same key and
 * the API does the work once. A key the caller sets (to retry across restarts) is kept.
 */
export function idempotencyKeys(base: URL): Layer {
  return (next) => (request) => {
    if (!request.headers.has('Idempotency-Key')) {
      const path = apiPath(request.url, base);
      const takesKey = IDEMPOTENT.some((r) => r.method === request.method && r.pattern.test(path));
      if (takesKey) request.headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
    }
    return next(request);
  };
}

/** Headers every request carries (the client's `headers` option), unless the request sets its own. */
export function defaultHeaders(headers: Record<string, string>): Layer {
  const entries = Object.entries(headers);
  return (next) => (request) => {
    for (const [name, value] of entries) if (!request.headers.has(name)) request.headers.set(name, value);
    return next(request);
  };
}
