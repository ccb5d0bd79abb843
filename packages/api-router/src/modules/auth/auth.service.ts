import {
  ACCESS_TOKEN_TTL_SECONDS,
  generateRefreshToken,
  hashPassword,
  hashToken,
  REFRESH_TOKEN_TTL_SECONDS,
  verifyPassword,
} from '@music/auth';
import {
  type Db,
  extendSession,
  findSessionUser,
  findSignInState,
  findUserByEmail,
  insertRefreshToken,
  insertUser,
  pruneLoginFailures,
  recordLoginFailure,
  revokeSession,
  rotateRefreshToken,
  type SignInState,
  startSession,
  updateUser,
  uuidv7,
} from '@music/db';
import type { Actor, Context, Deps } from '../../context';
import { AppError } from '../../errors';
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
  await insertRefreshToken(db, { hash: hashToken(refreshToken), sessionId, expiresAt: refreshExpiry() });
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
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    user: toUser(user),
  };
}

/**
 * Throttling lives in the database so every API instance sees the same counts. Checked before
 * the password: a throttled email gets 429 even with the right password, until its window ends.
 */
function assertNotThrottled(ctx: Context, failures: SignInState['failures']): void {
  const { loginMaxFailuresPerEmail, loginMaxFailuresPerAddress, loginWindowSeconds } = ctx.settings;
  const windowMs = loginWindowSeconds * 1000;
  const blocked = [
    failures.email.count >= loginMaxFailuresPerEmail ? failures.email.oldest : null,
    failures.address.count >= loginMaxFailuresPerAddress ? failures.address.oldest : null,
  ].filter((oldest): oldest is Date => oldest !== null);
  if (blocked.length === 0) return;
  const until = Math.max(...blocked.map((oldest) => oldest.getTime() + windowMs));
  const retryAfter = Math.max(1, Math.ceil((until - Date.now()) / 1000));
  throw new AppError('TOO_MANY_REQUESTS', 'Too many failed sign-in attempts; try again later', {
    retryAfter,
  });
}

export async function login(ctx: Context, input: LoginInput): Promise<TokenResponse> {
  // The account and the throttle counts come in one statement; a throttled email still gets 429
  // before its password is looked at.
  const { user, failures } = await findSignInState(ctx.db, {
    email: input.email,
    address: ctx.clientAddress,
    since: new Date(Date.now() - ctx.settings.loginWindowSeconds * 1000),
  });
  assertNotThrottled(ctx, failures);
  // Unknown emails are verified against a dummy hash: both failures cost the same time.
  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok) {
    await recordLoginFailure(ctx.db, { email: input.email, address: ctx.clientAddress });
    if (Math.random() < 0.01) {
      await pruneLoginFailures(ctx.db, new Date(Date.now() - ctx.settings.loginWindowSeconds * 1000));
    }
    throw invalidCredentials();
  }
  const sessionId = uuidv7();
  const refreshToken = generateRefreshToken();
  await startSession(ctx.db, {
    sessionId,
    userId: user.id,
    expiresAt: refreshExpiry(),
    refreshTokenHash: hashToken(refreshToken),
    email: input.email,
  });
  return tokenResponse(ctx, user, sessionId, refreshToken);
}

/**
 * Rotation: the presented token is spent and a new one issued. A token that was already spent
 * is a replay (someone holds a copy): the whole session is revoked, so the thief's and the
 * owner's tokens all stop working and the owner must sign in again.
 */
export async function refresh(ctx: Context, refreshToken: string): Promise<TokenResponse> {
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const rotation = await rotateRefreshToken(trx, hashToken(refreshToken));
    if (rotation.kind !== 'rotated') return rotation;
    const user = await findSessionUser(trx, rotation.sessionId, rotation.userId);
    if (!user) return { kind: 'invalid' as const };
    await extendSession(trx, rotation.sessionId, refreshExpiry());
    return { kind: 'issued' as const, tokens: await issueTokens(ctx, trx, user, rotation.sessionId) };
  });
  if (outcome.kind === 'issued') return outcome.tokens;
  if (outcome.kind === 'reused') {
    await revokeSession(ctx.db, outcome.sessionId, 'refresh token reuse');
    ctx.log.warn('refresh token reuse; session revoked', {
      sessionId: outcome.sessionId,
      requestId: ctx.requestId,
    });
  }
  throw invalidRefresh();
}

export async function logout(ctx: Context & { actor: Actor }): Promise<void> {
  await revokeSession(ctx.db, ctx.actor.sessionId, 'logout');
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
  const existing = await findUserByEmail(deps.db, normalised);
  if (existing) {
    if (existing.role !== 'admin') {
      await updateUser(deps.db, existing.id, { role: 'admin' });
      deps.log.info('bootstrap admin promoted', { email: normalised });
    }
    return;
  }
  await insertUser(deps.db, {
    id: uuidv7(),
    username: 'admin',
    email: normalised,
    password_hash: await hashPassword(password),
    role: 'admin',
  }).catch((error: unknown) => {
    // Another instance starting at the same moment created it first: that is the goal anyway.
    if (!(error instanceof Error && 'code' in error && error.code === '23505')) throw error;
  });
  deps.log.info('bootstrap admin ensured', { email: normalised });
}
