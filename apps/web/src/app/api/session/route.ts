import { type NextRequest, NextResponse } from 'next/server';
import {
  API_URL,
  clearSessionCookies,
  forwardedFor,
  isSameOrigin,
  readTokens,
  refreshSession,
  setSessionCookies,
  type Tokens,
} from '@/server/session';

/**
 * Sign-in (POST) and sign-out (DELETE). The API's answer to a sign-in is passed back without
 * its tokens, which go into httpOnly cookies instead.
 */
const noStore = { 'cache-control': 'no-store' };

function refuse(status: number, code: string, message: string) {
  return NextResponse.json({ code, message }, { status, headers: noStore });
}

export async function POST(req: NextRequest) {
  if (!isSameOrigin(req)) return refuse(403, 'FORBIDDEN', 'Cross-site requests are refused');
  const body = await req.text();
  if (body.length > 8192) return refuse(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
  let upstream: Response;
  try {
    upstream = await fetch(`${API_URL}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...forwardedFor(req) },
      body,
      cache: 'no-store',
    });
  } catch {
    return refuse(503, 'SERVICE_UNAVAILABLE', 'The catalogue service cannot be reached. Try again shortly.');
  }
  const payload = (await upstream.json().catch(() => null)) as (Tokens & { user: unknown }) | null;
  if (!upstream.ok || !payload) {
    const headers: Record<string, string> = { ...noStore };
    const retryAfter = upstream.headers.get('retry-after');
    if (retryAfter) headers['retry-after'] = retryAfter;
    return NextResponse.json(payload ?? { code: 'INTERNAL_SERVER_ERROR', message: 'Unexpected answer' }, {
      status: upstream.ok ? 502 : upstream.status,
      headers,
    });
  }
  const res = NextResponse.json({ user: payload.user }, { headers: noStore });
  setSessionCookies(req, res, payload);
  return res;
}

export async function DELETE(req: NextRequest) {
  if (!isSameOrigin(req)) return refuse(403, 'FORBIDDEN', 'Cross-site requests are refused');
  const tokens = readTokens(req);
  let access = tokens.access;
  // Only the refresh cookie left: spend it for an access token, so the session really ends on
  // the API instead of lingering until the refresh token expires.
  if (!access && tokens.refresh) {
    const outcome = await refreshSession(tokens.refresh, forwardedFor(req));
    if (outcome.kind === 'ok') access = outcome.tokens.accessToken;
  }
  if (access) {
    // Revokes the session on the API (every instance); the cookies go whatever it answers.
    await fetch(`${API_URL}/v1/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}` },
      cache: 'no-store',
    }).catch(() => undefined);
  }
  const res = new NextResponse(null, { status: 204, headers: noStore });
  clearSessionCookies(res);
  return res;
}
