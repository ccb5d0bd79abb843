import type { IncomingHttpHeaders } from 'node:http';
import { clientAddress, type TrustProxy } from '@music/auth/trust-proxy';

/** What a proxy says about the original request; only a trusted one may say it. */
const PROXY_ONLY = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port'] as const;

/**
 * Rewrites a request's forwarding headers before Next sees them, in place. Next fills
 * X-Forwarded-For from the socket only when the request carried none, and the API (which trusts
 * the console) throttles sign-ins by it, so a browser could otherwise pick the address it is
 * counted under. After this, X-Forwarded-For holds exactly one address: the peer's, or, when the
 * peer is a proxy in TRUST_PROXY, the one it reports (the right-most entry it does not trust).
 * An untrusted peer's X-Forwarded-Host/-Proto/-Port go too: they decide the same-origin check and
 * whether the connection counts as HTTPS (Secure cookies, HSTS), and Next sets its own.
 */
export function rewriteForwardedHeaders(headers: IncomingHttpHeaders, peer: string, trust: TrustProxy): void {
  if (!trust.trusts(peer)) {
    for (const name of PROXY_ONLY) delete headers[name];
  }
  headers['x-forwarded-for'] = clientAddress(peer, headers['x-forwarded-for'], trust);
}
