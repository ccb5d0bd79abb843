import 'server-only';
import { randomBytes } from 'node:crypto';
import type { ErrorCode } from '@music/api-router/schemas';
import type { RouterOutputs } from '@music/api-router/types';
import { type NextRequest, NextResponse } from 'next/server';
import { GENERATION_COOKIE } from '@/lib/session-refresh';
import { apiClient, apiFailure } from './api-client';
import { overHttps } from './security-headers';

/**
 * The console's side of the session. The API's tokens live only here, in httpOnly cookies the
 * browser cannot read; every call for data goes through the console's route handlers, which add
 * the bearer token. Refreshing is the browser's move, not the server's (see
 * src/lib/session-refresh.ts): a refresh token is single use and its reuse revokes the session,
 * so the one party that sees every tab of a user, the browser, spends it, one refresh at a time,
 * whichever console instance answers. Route handlers only answer 401 when the access token is
 * missing or refused, and never touch the cookies then.
 */

export const ACCESS_COOKIE = 'mc_access';
export const REFRESH_COOKIE = 'mc_refresh';
/**
 * GENERATION_COOKIE is readable by the page and secret of nothing: a random value that changes
 * with every new token pair, so a tab can tell that another tab refreshed since it sent a call
 * (and not spend the refresh token again).
 */
export { GENERATION_COOKIE };

const REFRESH_MAX_AGE = 30 * 24 * 60 * 60; // the API's refresh-token lifetime

type Tokens = Pick<RouterOutputs['auth']['refresh'], 'accessToken' | 'refreshToken' | 'expiresIn'>;

export function readTokens(req: NextRequest): { access?: string; refresh?: string } {
  return { access: req.cookies.get(ACCESS_COOKIE)?.value, refresh: req.cookies.get(REFRESH_COOKIE)?.value };
}

function setSessionCookies(req: NextRequest, res: NextResponse, tokens: Tokens): void {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: overHttps(req), path: '/' };
  // The cookie goes a little before the token does (a tenth of its life, 30 s at most), so a page
  // refreshes ahead of the API's 401 rather than after it.
  res.cookies.set(ACCESS_COOKIE, tokens.accessToken, {
    ...base,
    maxAge: tokens.expiresIn - Math.min(30, Math.floor(tokens.expiresIn / 10)),
  });
  res.cookies.set(REFRESH_COOKIE, tokens.refreshToken, { ...base, maxAge: REFRESH_MAX_AGE });
  res.cookies.set(GENERATION_COOKIE, randomBytes(9).toString('base64url'), {
    ...base,
    httpOnly: false,
    maxAge: REFRESH_MAX_AGE,
  });
}

export function clearSessionCookies(res: NextResponse): void {
  for (const name of [ACCESS_COOKIE, REFRESH_COOKIE, GENERATION_COOKIE]) {
    res.cookies.set(name, '', { path: '/', maxAge: 0 });
  }
}

/**
 * The address the API should throttle sign-ins by, for the API, which trusts the console's
 * X-Forwarded-For (loopback, or listed in its TRUST_PROXY). The console's server
 * (console-server/forwarded.ts) has put exactly one address there before Next saw the request,
 * in place of anything the browser sent: the connection's peer, or what a proxy in the console's
 * own TRUST_PROXY reported.
 */
export function forwardedFor(req: { headers: Pick<Headers, 'get'> }): Record<string, string> {
  const address = req.headers.get('x-forwarded-for')?.trim();
  return address ? { 'x-forwarded-for': address } : {};
}

/**
 * Cross-site request forgery: cookies are SameSite=Lax, and every state-changing call must come
 * from this origin (browsers always send Origin on fetch POSTs) with a JSON body, which a form on
 * another site cannot produce without a CORS preflight.
 */
export function isSameOrigin(req: NextRequest): boolean {
  const origin = req.headers.get('origin');
  if (!origin) return req.headers.get('sec-fetch-site') !== 'cross-site';
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export type Refresh = { kind: 'ok'; tokens: Tokens } | { kind: 'refused' } | { kind: 'unreachable' };

/**
 * Spends a refresh token at the API for the request `req` (from its address): a new pair, a
 * refusal (the session is over), or no answer.
 */
export async function refreshSession(req: NextRequest, refreshToken: string): Promise<Refresh> {
  try {
    return { kind: 'ok', tokens: await apiClient(forwardedFor(req)).auth.refresh.mutate({ refreshToken }) };
  } catch (error) {
    // A refused (401) or unreadable (422) token ends the session; any other failure may pass.
    const { status } = apiFailure(error);
    return status === 401 || status === 422 ? { kind: 'refused' } : { kind: 'unreachable' };
  }
}

/** The session routes' answers are never stored. */
export const NO_STORE = { 'cache-control': 'no-store' };

/** What a route says (with a 503) when the API does not answer. */
export const UNREACHABLE = 'The catalogue service cannot be reached. Try again shortly.';

/** A failure in the tRPC error envelope, so the client reports it like any other error. */
export function trpcError(status: number, code: ErrorCode, message: string): NextResponse {
  return NextResponse.json(
    { error: { message, code: -32000, data: { code, httpStatus: status } } },
    { status, headers: NO_STORE },
  );
}

/**
 * Ends on the API (every instance) the session of `access`, whatever it answers: the cookies that
 * held it are cleared or replaced by the caller either way.
 */
export async function logOut(access: string | undefined): Promise<void> {
  if (!access) return;
  await apiClient({ authorization: `Bearer ${access}` })
    .auth.logout.mutate()
    .catch(() => undefined);
}

/**
 * A sign-in (or sign-up) from a browser that holds a session already (another account, or the
 * same one signed in again): that session is replaced, so it is ended on the API rather than left
 * to live out its refresh token unseen; the new tokens go into the cookies. Only the old access token is used: spending its refresh token here could
 * race a refresh in another tab.
 */
export async function replaceSession(
  req: NextRequest,
  signedIn: Tokens & { user: object },
  status = 200,
): Promise<NextResponse> {
  await logOut(readTokens(req).access);
  return withSessionCookies(req, { user: signedIn.user }, signedIn, status);
}

/** A session route's JSON answer that hands out a new token pair: the tokens go into the cookies. */
export function withSessionCookies(
  req: NextRequest,
  body: object,
  tokens: Tokens,
  status = 200,
): NextResponse {
  const res = NextResponse.json(body, { status, headers: NO_STORE });
  setSessionCookies(req, res, tokens);
  return res;
}
