import type { IncomingMessage } from 'node:http';

/**
 * Cross-origin browser access to `/v1` (version 1.1): only for the exact origins configured in
 * CORS_ORIGINS, never with credentials (the API uses bearer tokens, not cookies). An origin
 * not on the list gets no CORS headers at all, so the browser refuses to show it the answer.
 */

/** What a browser script may read from an answer besides the simple headers. */
const EXPOSED = [
  'ETag',
  'Location',
  'Link',
  'Retry-After',
  'X-Request-Id',
  'Idempotent-Replayed',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  // A browser script tells an expired token (error="invalid_token") from a missing one by it.
  'WWW-Authenticate',
].join(', ');

/** What a preflight allows a script to send (its own X-Request-Id ties its logs to ours). */
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, X-Request-Id';

/** How long a browser may cache a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * CORS_ORIGINS as a list of origins. Each entry must be an origin exactly (scheme, host and an
 * optional port, no path): anything else is a configuration error named in one line.
 */
export function parseCorsOrigins(setting: string): string[] {
  const origins: string[] = [];
  for (const raw of setting.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new Error(`Invalid configuration: CORS_ORIGINS entry '${entry}' is not an origin`);
    }
    if (!/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, '').toLowerCase()) {
      throw new Error(
        `Invalid configuration: CORS_ORIGINS entry '${entry}' must be an exact origin like https://app.example.com`,
      );
    }
    origins.push(url.origin);
  }
  return origins;
}

export interface Cors {
  /** The headers an answer to this request carries (none for an unlisted or absent Origin). */
  headersFor(req: IncomingMessage): Record<string, string>;
  /** A preflight's extra headers, for a route allowing `methods`. */
  preflightFor(req: IncomingMessage, methods: string): Record<string, string>;
}

export function createCors(origins: readonly string[]): Cors {
  const listed = new Set(origins);
  const allowed = (req: IncomingMessage): string | undefined => {
    const origin = req.headers.origin;
    return typeof origin === 'string' && listed.has(origin) ? origin : undefined;
  };
  return {
    headersFor(req): Record<string, string> {
      if (listed.size === 0) return {};
      const origin = allowed(req);
      // Vary even when refused: a shared cache must not hand one origin's answer to another.
      if (!origin) return { Vary: 'Origin' };
      return {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': EXPOSED,
        Vary: 'Origin',
      };
    },
    preflightFor(req, methods): Record<string, string> {
      if (!allowed(req)) return {};
      return {
        'Access-Control-Allow-Methods': methods,
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
      };
    },
  };
}
