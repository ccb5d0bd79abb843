import type { RouterInputs, RouterOutputs } from '@music/api-router/types';
import { type NextRequest, NextResponse } from 'next/server';
import { answerFailure, readSameOriginBody, refuse } from '@/server/answers';
import { apiClient, apiFailure } from '@/server/api-client';
import {
  clearSessionCookies,
  forwardedFor,
  isSameOrigin,
  logOut,
  NO_STORE,
  readTokens,
  refreshSession,
  replaceSession,
} from '@/server/session';

/**
 * Sign-in (POST) and sign-out (DELETE). The API's answer to a sign-in is passed back without
 * its tokens, which go into httpOnly cookies instead; its refusals are passed back in the
 * contract's `/v1` error body (`{code, message}`, `errors` on a 422, `Retry-After`).
 * A sign-in from a browser that is signed in already replaces that session (`replaceSession`).
 */
export async function POST(req: NextRequest) {
  const input = await readSameOriginBody(req);
  if (input instanceof NextResponse) return input;
  let signedIn: RouterOutputs['auth']['login'];
  try {
    // Validated once, by the procedure: its 422 names the fields, as any other call's does.
    signedIn = await apiClient(forwardedFor(req)).auth.login.mutate(input as RouterInputs['auth']['login']);
  } catch (error) {
    return answerFailure(apiFailure(error));
  }
  return replaceSession(req, signedIn);
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
  // Revokes the session on the API (every instance); the cookies go whatever it answers.
  await logOut(access);
  const res = new NextResponse(null, { status: 204, headers: NO_STORE });
  clearSessionCookies(res);
  return res;
}
