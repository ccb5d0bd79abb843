import {
  generateRefreshToken,
  hashPassword,
  hashToken,
  REFRESH_TOKEN_TTL_SECONDS,
  verifyPassword,
} from '@music/auth';
import { type Db, isUniqueViolation, loginThrottle, sessions, users, uuidv7 } from '@music/db';
import type { Context, Deps } from '../../context';
import { AppError } from '../../errors';
import type { AuthedContext } from '../../kernel';
import { emailSchema, toUser } from '../users/users.schema';
import type { LoginInput, TokenResponse } from './auth.schema';

const invalidCredentials = () => new AppError('UNAUTHORIZED', 'Invalid email or password');
const invalidRefresh = () => new AppError('UNAUTHORIZED', 'The refresh token is invalid, expired or revoked');

function refreshExpiry(): Date {
  return new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000);
}

async function issueTokens(
  ctx: Pick<Deps, 'tokens'>,
  db: Db,
  user: Parameters<typeof toUser>[0],
  sessionId: string,
): Promise<TokenResponse> {
  const refreshToken = generateRefreshToken();
  await sessions.insertRefreshToken(db, {
    hash: hashToken(refreshToken),
    sessionId,
    expiresAt: refreshExpiry(),
  });
  return tokenResponse(ctx, user, sessionId, refreshToken);
}

function tokenResponse(
  ctx: Pick<Deps, 'tokens'>,
  user: Parameters<typeof toUser>[0],
  sessionId: string,
  refreshToken: string,
): TokenResponse {
  return {
    accessToken: ctx.tokens.signAccessTokenSync({ sub: user.id, role: user.role, sid: sessionId }),
    refreshToken,
    tokenType: 'Bearer',
    expiresIn: ctx.tokens.accessTokenTtlSeconds,
    user: toUser(user),
  };
}

/**
 * Throttling lives in the database so every API instance sees the same counts. Every attempt is
 * counted before its password is looked at (see countSignInAttempt): an email or an address over
 * its limit gets 429 even with the right password, until its window ends, and of any number of
 * simultaneous attempts no more than the limit are checked.
 */
function assertNotThrottled(ctx: Context, attempt: loginThrottle.SignInAttempt): void {
  const { loginMaxFailuresPerEmail, loginMaxFailuresPerAddress } = ctx.settings;
  const blocked = [
    attempt.email.attempts > loginMaxFailuresPerEmail ? attempt.email.retryAfterSeconds : 0,
    attempt.address.attempts > loginMaxFailuresPerAddress ? attempt.address.retryAfterSeconds : 0,
  ];
  const retryAfter = Math.max(...blocked);
  if (retryAfter === 0) return;
  if (blocked[0]! > 0) ctx.observer.throttled('sign-in-email');
  if (blocked[1]! > 0) ctx.observer.throttled('sign-in-address');
  throw new AppError('TOO_MANY_REQUESTS', 'Too many failed sign-in attempts; try again later', {
    retryAfter,
  });
}

/**
 * A signed-in caller proving they know their own password, before a change to their own email
 * or password: the same check as a sign-in, counted against their email and client address
 * first (429 when either is over its limit, whether the password is right or not) and forgiven
 * when right. So a stolen access token is no unthrottled way to guess the password.
 */
export async function proveOwnPassword(ctx: Context, email: string, password: string): Promise<boolean> {
  const attempt = await loginThrottle.countSignInAttempt(ctx.db, {
    email,
    address: ctx.clientAddress,
    windowSeconds: ctx.settings.loginWindowSeconds,
  });
  assertNotThrottled(ctx, attempt);
  const ok = await verifyPassword(attempt.user?.password_hash, password);
  if (ok) await loginThrottle.forgiveSignInAttempt(ctx.db, { email, address: ctx.clientAddress });
  return ok;
}

export async function login(ctx: Context, input: LoginInput): Promise<TokenResponse> {
  // The attempt is counted and the account read in one statement.
  const attempt = await loginThrottle.countSignInAttempt(ctx.db, {
    email: input.email,
    address: ctx.clientAddress,
    windowSeconds: ctx.settings.loginWindowSeconds,
  });
  assertNotThrottled(ctx, attempt);
  const { user } = attempt;
  // Unknown emails are verified against a dummy hash: both failures cost the same time.
  const ok = await verifyPassword(user?.password_hash, input.password);
  // A failure needs nothing more: it was counted before the check.
  if (!user || !ok) throw invalidCredentials();
  const sessionId = uuidv7();
  const refreshToken = generateRefreshToken();
  await sessions.startSession(ctx.db, {
    sessionId,
    userId: user.id,
    expiresAt: refreshExpiry(),
    refreshTokenHash: hashToken(refreshToken),
    email: input.email,
  });
  await loginThrottle.uncountSignInAttempt(ctx.db, ctx.clientAddress);
  return tokenResponse(ctx, user, sessionId, refreshToken);
}

/**
 * Rotation: the presented token is spent and a new one issued. A token spent within the grace
 * period (REFRESH_REUSE_GRACE_SECONDS) gets a new pair of the same session too: two workers of
 * one client refreshing at once must not sign each other out. A token spent longer ago is a
 * replay (someone holds a copy): the whole session is revoked, so the thief's and the owner's
 * tokens all stop working and the owner must sign in again.
 */
export async function refresh(ctx: Context, refreshToken: string): Promise<TokenResponse> {
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const grace = ctx.settings.refreshReuseGraceSeconds;
    const rotation = await sessions.rotateRefreshToken(trx, hashToken(refreshToken), grace);
    if (rotation.kind !== 'rotated' && rotation.kind !== 'graced') return rotation;
    const user = await sessions.findSessionUser(trx, rotation.sessionId, rotation.userId);
    if (!user) return { kind: 'invalid' as const };
    await sessions.extendSession(trx, rotation.sessionId, refreshExpiry());
    return { kind: 'issued' as const, tokens: await issueTokens(ctx, trx, user, rotation.sessionId) };
  });
  if (outcome.kind === 'issued') return outcome.tokens;
  if (outcome.kind === 'reused') {
    await sessions.revokeSession(ctx.db, outcome.sessionId, 'refresh token reuse');
    ctx.log.warn('refresh token reuse; session revoked', {
      sessionId: outcome.sessionId,
      requestId: ctx.requestId,
    });
  }
  throw invalidRefresh();
}

export async function logout(ctx: AuthedContext): Promise<void> {
  await sessions.revokeSession(ctx.db, ctx.actor.sessionId, 'logout');
}

/**
 * Start-up: makes sure an admin with this email exists. An existing account is promoted to
 * admin but keeps its password (ADMIN_PASSWORD applies when the account is created).
 */
export async function ensureAdmin(
  deps: Pick<Deps, 'db' | 'log'>,
  email: string,
  password: string,
): Promise<void> {
  const normalised = emailSchema.parse(email);
  const existing = await users.findUserByEmail(deps.db, normalised);
  if (existing) {
    if (existing.role !== 'admin') {
      await users.updateUser(deps.db, existing.id, { role: 'admin' });
      deps.log.info('bootstrap admin promoted', { email: normalised });
    }
    return;
  }
  await users
    .insertUser(deps.db, {
      id: uuidv7(),
      username: 'admin',
      email: normalised,
      password_hash: await hashPassword(password),
      role: 'admin',
    })
    .catch((error: unknown) => {
      // Another instance starting at the same moment created it first: that is the goal anyway.
      if (!isUniqueViolation(error)) throw error;
    });
  deps.log.info('bootstrap admin ensured', { email: normalised });
}
