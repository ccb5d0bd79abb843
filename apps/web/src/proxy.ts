import { type NextRequest, NextResponse } from 'next/server';
import {
  contentSecurityPolicy,
  newNonce,
  overHttps,
  STRICT_TRANSPORT_SECURITY,
} from '@/server/security-headers';

/**
 * Where a visitor without a session may go: sign-in, sign-up, account recovery (asking for a
 * reset link, and the page the link opens), the console's API routes, assets.
 */
const OPEN = /^\/(api\/|_next\/|sign-in|sign-up|forgot-password|reset-password|favicon\.ico|icon\.svg)/;

/**
 * Every answer but Next's static assets passes here. Each gets a Content-Security-Policy with a
 * nonce of its own (pages render per request for it, see app/layout.tsx), and HSTS over HTTPS.
 *
 * A visitor with no session cookie at all is sent to sign-in before any page renders. An
 * optimistic check only: whether the session is still valid is decided by the API on every call;
 * the console sends the visitor back to sign-in when it says no.
 */
export function proxy(req: NextRequest) {
  const policy = contentSecurityPolicy(newNonce(), process.env.NODE_ENV === 'development');
  const res = needsSignIn(req) ? toSignIn(req) : withPolicy(req, policy);
  res.headers.set('content-security-policy', policy);
  if (overHttps(req)) res.headers.set('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  return res;
}

function needsSignIn(req: NextRequest): boolean {
  if (OPEN.test(req.nextUrl.pathname)) return false;
  return !(req.cookies.has('mc_access') || req.cookies.has('mc_refresh'));
}

function toSignIn(req: NextRequest): NextResponse {
  const url = req.nextUrl.clone();
  url.pathname = '/sign-in';
  url.search = '';
  const next = `${req.nextUrl.pathname}${req.nextUrl.search}`;
  if (next !== '/') url.searchParams.set('next', next);
  return NextResponse.redirect(url);
}

/** Next takes the nonce for its own script tags from the request's policy. */
function withPolicy(req: NextRequest, policy: string): NextResponse {
  const headers = new Headers(req.headers);
  headers.set('content-security-policy', policy);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Not Next's built assets and images, nor the icons: files, never a page. Nor an import's
  // upload (app/api/imports): Next holds in memory the body of any request the proxy sees, and
  // cuts it after 10 MB; an import's file is up to 100 MB, passed on to the API as it arrives.
  matcher: ['/((?!_next/static/|_next/image|favicon.ico|icon.svg|api/imports$).*)'],
};
