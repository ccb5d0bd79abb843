/**
 * The headers that keep a console page to itself: a Content-Security-Policy with a fresh script
 * nonce per request (src/proxy.ts sets it; Next reads the nonce from the request's copy and puts
 * it on its own script tags), and HSTS over HTTPS. The static ones (X-Frame-Options and the rest)
 * are in next.config.ts. No 'server-only' here: the proxy imports this, and it holds no secret.
 */

/** 16 random bytes, base64: a new one for every page. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Scripts only from the console itself, inline ones only with this response's nonce. Styles may
 * be inline: React renders `style` attributes (the policy's target is script injection). In
 * development, React's dev build needs eval (it rebuilds server error stacks with it); the dev
 * server's hot-reload WebSocket is same-origin, which 'self' covers (CSP Level 3).
 */
export function contentSecurityPolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * A year, and this host only: no includeSubDomains, because the console may sit on a subdomain
 * of a company's domain, and its policy must not force HTTPS on the company's other hosts.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * Whether the browser reached the console over HTTPS: directly, or through a proxy that says so.
 * The console's server (console-server/forwarded.ts) drops X-Forwarded-Proto unless a proxy it
 * trusts sent it.
 */
export function overHttps(req: { nextUrl: URL; headers: Headers }): boolean {
  return req.nextUrl.protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https';
}
