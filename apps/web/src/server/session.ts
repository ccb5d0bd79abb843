import 'server-only';
import type { NextRequest, NextResponse } from 'next/server';

/**
 * The console's side of the session. The API's tokens live only here, in httpOnly cookies the
 * browser cannot read; every call for data goes through the console's route handlers, which add
 * the bearer token, refresh it when the API says it has expired, and clear the cookies when the
 * session is over (refresh refused: signed out elsewhere, revoked, user deleted).
 */

export const API_URL = (process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? '4000'}`).replace(
  /\/+$/,
  '',
);

export const ACCESS_COOKIE = 'mc_access';
export const REFRESH_COOKIE = 'mc_refresh';
const REFRESH_MAX_AGE = 30 * 24 * 60 * 60; // the API's refresh-token lifetime

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export function readTokens(req: NextRequest): { access?: string; refresh?: string } {
  return { access: req.cookies.get(ACCESS_COOKIE)?.value, refresh: req.cookies.get(REFRESH_COOKIE)?.value };
}

function secure(req: NextRequest): boolean {
  return req.nextUrl.protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https';
}

export function setSessionCookies(req: NextRequest, res: NextResponse, tokens: Tokens): void {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: secure(req), path: '/' };
  res.cookies.set(ACCESS_COOKIE, tokens.accessToken, {
    ...base,
    maxAge: Math.max(60, tokens.expiresIn - 30),
  });
  res.cookies.set(REFRESH_COOKIE, tokens.refreshToken, { ...base, maxAge: REFRESH_MAX_AGE });
}

export function clearSessionCookies(res: NextResponse): void {
  res.cookies.set(ACCESS_COOKIE, '', { path: '/', maxAge: 0 });
  res.cookies.set(REFRESH_COOKIE, '', { path: '/', maxAge: 0 });
}

/**
 * The address the API should throttle sign-ins by. The API trusts X-Forwarded-For from loopback
 * peers and takes its last entry; Next.js puts the socket address there when the request
 * carried none. Behind a reverse proxy, that proxy must overwrite the header (see README).
 */
export function forwardedFor(req: NextRequest): Record<string, string> {
  const last = req.headers.get('x-forwarded-for')?.split(',').pop()?.trim();
  return last ? { 'x-forwarded-for': last } : {};
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

/**
 * One refresh per refresh token. Refresh tokens are single use and a reused one revokes the whole
 * session, so two requests that find the access token expired at the same moment must not both
 * spend it: the second waits for the first and gets the same new pair. A finished refresh is
 * remembered for a minute for requests that were already in flight with the old cookie.
 * (Run one console process per session, or sticky sessions, if you run several.)
 */
const refreshes = new Map<string, Promise<Tokens | null>>();

export function refreshTokens(refreshToken: string, headers: Record<string, string>): Promise<Tokens | null> {
  const pending = refreshes.get(refreshToken);
  if (pending) return pending;
  const attempt = (async () => {
    try {
      const res = await fetch(`${API_URL}/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ refreshToken }),
        cache: 'no-store',
      });
      if (!res.ok) return null;
      return (await res.json()) as Tokens;
    } catch {
      return null;
    }
  })();
  refreshes.set(refreshToken, attempt);
  attempt.finally(() => setTimeout(() => refreshes.delete(refreshToken), 60_000).unref?.());
  return attempt;
}
