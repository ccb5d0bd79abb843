import { type NextRequest, NextResponse } from 'next/server';
import {
  API_URL,
  clearSessionCookies,
  forwardedFor,
  isSameOrigin,
  readTokens,
  refreshTokens,
  setSessionCookies,
  type Tokens,
} from '@/server/session';

/**
 * The console's tRPC endpoint: forwards each call to the API's /trpc with the session's bearer
 * token, refreshing it once when the API answers 401 (or when only the refresh cookie is left).
 * The body and status are passed through untouched, so the client sees the API's own errors.
 */
const PROCEDURE = /^[A-Za-z]+(\.[A-Za-z]+)+$/;

function errorResponse(status: number, code: string, message: string): NextResponse {
  // The tRPC error envelope, so the client reports it like any other error.
  return NextResponse.json(
    { error: { message, code: -32000, data: { code, httpStatus: status } } },
    { status, headers: { 'cache-control': 'no-store' } },
  );
}

async function forward(
  req: NextRequest,
  procedure: string,
  body: string | undefined,
  token: string | undefined,
) {
  const headers: Record<string, string> = { accept: 'application/json', ...forwardedFor(req) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const requestId = req.headers.get('x-request-id');
  if (requestId) headers['x-request-id'] = requestId;
  return fetch(`${API_URL}/trpc/${procedure}${req.nextUrl.search}`, {
    method: req.method,
    headers,
    body,
    cache: 'no-store',
    redirect: 'manual',
  });
}

async function handle(req: NextRequest, context: { params: Promise<{ trpc: string }> }) {
  const { trpc: procedure } = await context.params;
  if (!PROCEDURE.test(procedure)) return errorResponse(404, 'NOT_FOUND', 'No such procedure');
  if (req.method === 'POST' && !isSameOrigin(req)) {
    return errorResponse(403, 'FORBIDDEN', 'Cross-site requests are refused');
  }
  const body = req.method === 'POST' ? await req.text() : undefined;
  const session = readTokens(req);

  let refreshed: Tokens | null = null;
  let token = session.access;
  if (!token && session.refresh) {
    refreshed = await refreshTokens(session.refresh, forwardedFor(req));
    token = refreshed?.accessToken;
  }
  let upstream: Response;
  try {
    upstream = await forward(req, procedure, body, token);
    if (upstream.status === 401 && session.refresh && !refreshed && session.access) {
      refreshed = await refreshTokens(session.refresh, forwardedFor(req));
      if (refreshed) upstream = await forward(req, procedure, body, refreshed.accessToken);
    }
  } catch {
    return errorResponse(
      503,
      'SERVICE_UNAVAILABLE',
      'The catalogue service cannot be reached. Try again shortly.',
    );
  }

  const headers = new Headers({ 'cache-control': 'no-store' });
  for (const name of ['content-type', 'retry-after', 'x-request-id']) {
    const value = upstream.headers.get(name);
    if (value) headers.set(name, value);
  }
  const res = new NextResponse(await upstream.arrayBuffer(), { status: upstream.status, headers });
  if (refreshed) setSessionCookies(req, res, refreshed);
  else if (upstream.status === 401) clearSessionCookies(res);
  return res;
}

export { handle as GET, handle as POST };
