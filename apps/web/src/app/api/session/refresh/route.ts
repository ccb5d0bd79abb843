import type { NextRequest } from 'next/server';
import {
  clearSessionCookies,
  isSameOrigin,
  readTokens,
  refreshSession,
  trpcError,
  UNREACHABLE,
  withSessionCookies,
} from '@/server/session';

/**
 * Spends the refresh cookie once and sets the new pair. Called only by the browser's refresh
 * coordinator (src/lib/session-refresh.ts), one call at a time per browser: two consoles must
 * never spend the same refresh token, or the API revokes the session. Answers in the tRPC error
 * envelope, which the coordinator hands back in place of the call that needed the refresh.
 */
export async function POST(req: NextRequest) {
  if (!isSameOrigin(req)) return trpcError(403, 'FORBIDDEN', 'Cross-site requests are refused');
  const { refresh } = readTokens(req);
  // Nothing to spend, and nothing to clear: a Set-Cookie here could erase the cookies another
  // tab has just received by signing in.
  if (!refresh) return trpcError(401, 'UNAUTHORIZED', 'Your session has ended. Please sign in again.');
  const outcome = await refreshSession(req, refresh);
  if (outcome.kind === 'unreachable') {
    // The session may well be fine: keep it, and say the service is away.
    return trpcError(503, 'SERVICE_UNAVAILABLE', UNREACHABLE);
  }
  if (outcome.kind === 'refused') {
    const res = trpcError(401, 'UNAUTHORIZED', 'Your session has ended. Please sign in again.');
    clearSessionCookies(res);
    return res;
  }
  return withSessionCookies(req, { refreshed: true }, outcome.tokens);
}
