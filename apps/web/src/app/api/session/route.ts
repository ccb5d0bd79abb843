import type { ErrorCode } from '@music/api-router/schemas';
import type { RouterInputs, RouterOutputs } from '@music/api-router/types';
import { type NextRequest, NextResponse } from 'next/server';
import { type ApiFailure, apiClient, apiFailure } from '@/server/api-client';
import {
  clearSessionCookies,
  forwardedFor,
  isSameOrigin,
  NO_STORE,
  readTokens,
  refreshSession,
  UNREACHABLE,
  withSessionCookies,
} from '@/server/session';

/**
 * Sign-in (POST) and sign-out (DELETE). The API's answer to a sign-in is passed back without
 * its tokens, which go into httpOnly cookies instead; its refusals are passed back in the
 * contract's `/v1` error body (`{code, message}`, `errors` on a 422, `Retry-After`).
 */
function refuse(status: number, code: ErrorCode, message: string) {
  return NextResponse.json({ code, message }, { status, headers: NO_STORE });
}

/** The body as a JSON object, or why not, in the words `/v1` used for the same body. */
function jsonObject(body: string): object | string {
  if (body.trim() === '') return 'A JSON object body is required';
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'The body is not valid UTF-8 JSON';
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? value
    : 'The body must be a JSON object';
}

function answerFailure({ status, error }: ApiFailure) {
  if (status === 0) {
    return refuse(503, 'SERVICE_UNAVAILABLE', UNREACHABLE);
  }
  if (!error) {
    return refuse(status >= 200 && status < 300 ? 502 : status, 'INTERNAL_SERVER_ERROR', 'Unexpected answer');
  }
  const headers: Record<string, string> = { ...NO_STORE };
  if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter);
  const body = {
    code: error.code,
    message: error.message,
    ...(error.code === 'VALIDATION_FAILED' ? { errors: error.errors ?? [] } : {}),
  };
  return NextResponse.json(body, { status, headers });
}

export async function POST(req: NextRequest) {
  if (!isSameOrigin(req)) return refuse(403, 'FORBIDDEN', 'Cross-site requests are refused');
  const body = await req.text();
  if (body.length > 8192) return refuse(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
  const input = jsonObject(body);
  if (typeof input === 'string') return refuse(400, 'BAD_REQUEST', input);
  let signedIn: RouterOutputs['auth']['login'];
  try {
    // Validated once, by the procedure: its 422 names the fields, as any other call's does.
    signedIn = await apiClient(forwardedFor(req)).auth.login.mutate(input as RouterInputs['auth']['login']);
  } catch (error) {
    return answerFailure(apiFailure(error));
  }
  return withSessionCookies(req, { user: signedIn.user }, signedIn);
}

export async function DELETE(req: NextRequest) {
  if (!isSameOrigin(req)) return refuse(403, 'FORBIDDEN', 'Cross-site requests are refused');
  const tokens = readTokens(req);
  let access = tokens.access;
  // Only the refresh cookie left: spend it for an access token, so the session really ends on
  // the API instead of lingering until the refresh token expires.
  if (!access && tokens.refresh) {
    const outcome = await refreshSession(req, tokens.refresh);
    if (outcome.kind === 'ok') access = outcome.tokens.accessToken;
  }
  if (access) {
    // Revokes the session on the API (every instance); the cookies go whatever it answers.
    await apiClient({ authorization: `Bearer ${access}` })
      .auth.logout.mutate()
      .catch(() => undefined);
  }
  const res = new NextResponse(null, { status: 204, headers: NO_STORE });
  clearSessionCookies(res);
  return res;
}
