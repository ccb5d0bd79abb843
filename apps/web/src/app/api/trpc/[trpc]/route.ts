import type { NextRequest } from 'next/server';
import { NextResponse } from 'next/server';
import { API_URL } from '@/server/api-client';
import { forwardedFor, isSameOrigin, NO_STORE, readTokens, trpcError, UNREACHABLE } from '@/server/session';

/**
 * The console's tRPC endpoint: forwards each call to the API's /trpc with the session's bearer
 * token. The body and status are passed through untouched, so the client sees the API's own
 * errors. It never refreshes the session and never changes the cookies: on a 401 the browser
 * refreshes, one tab at a time (src/lib/session-refresh.ts), and tries again; a cookie cleared
 * here could be the fresh one another tab has just received.
 */
const PROCEDURE = /^[A-Za-z]+(\.[A-Za-z]+)+$/;
/**
 * The procedures that answer tokens: the session routes (/api/session) call them and keep the
 * tokens in httpOnly cookies. Through here their answer would reach the page's scripts.
 */
const TOKEN_PROCEDURES = new Set(['auth.login', 'auth.refresh']);
/**
 * Account recovery (public procedures) goes out anonymous, whatever the cookies: someone whose
 * session has ended, with only its refresh cookie left, must not be sent through a refresh, and
 * to sign-in when it is refused, on their way to choosing a new password.
 */
const ANONYMOUS_PROCEDURES = new Set(['auth.requestPasswordReset', 'auth.resetPassword']);

async function handle(req: NextRequest, context: { params: Promise<{ trpc: string }> }) {
  const { trpc: procedure } = await context.params;
  if (!PROCEDURE.test(procedure)) return trpcError(404, 'NOT_FOUND', 'No such procedure');
  if (TOKEN_PROCEDURES.has(procedure)) {
    return trpcError(404, 'NOT_FOUND', 'Sign in through the console (/api/session)');
  }
  if (req.method === 'POST' && !isSameOrigin(req)) {
    return trpcError(403, 'FORBIDDEN', 'Cross-site requests are refused');
  }
  const { access, refresh } = ANONYMOUS_PROCEDURES.has(procedure) ? {} : readTokens(req);
  // Only the refresh cookie left (the access cookie's lifetime ended): the browser refreshes
  // first. With neither, the call goes out anonymous, and the API says what a visitor may do.
  if (!access && refresh) return trpcError(401, 'UNAUTHORIZED', 'The session needs refreshing');
  const headers: Record<string, string> = { accept: 'application/json', ...forwardedFor(req) };
  if (req.method === 'POST') headers['content-type'] = 'application/json';
  if (access) headers.authorization = `Bearer ${access}`;
  const requestId = req.headers.get('x-request-id');
  if (requestId) headers['x-request-id'] = requestId;
  // An edit form's precondition (version 1.1): the API answers 412 when the record has changed.
  const ifMatch = req.headers.get('if-match');
  if (ifMatch) headers['if-match'] = ifMatch;
  let upstream: Response;
  try {
    upstream = await fetch(`${API_URL}/trpc/${procedure}${req.nextUrl.search}`, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? await req.text() : undefined,
      cache: 'no-store',
      redirect: 'manual',
    });
  } catch {
    return trpcError(503, 'SERVICE_UNAVAILABLE', UNREACHABLE);
  }
  const out = new Headers(NO_STORE);
  for (const name of ['content-type', 'retry-after', 'x-request-id']) {
    const value = upstream.headers.get(name);
    if (value) out.set(name, value);
  }
  return new NextResponse(await upstream.arrayBuffer(), { status: upstream.status, headers: out });
}

export { handle as GET, handle as POST };
