import { generateRefreshToken, hashPassword, hashToken } from '@music/auth';
import { loginThrottle, passwordResets, sessions, users } from '@music/db';
import { PASSWORD_CHANGED, recordAudit } from '../../audit';
import type { Context } from '../../context';
import { AppError, validationError } from '../../errors';
import { type AuthedContext, assertWithinLimits, isAdmin, loadOr404 } from '../../kernel';
import { toIso } from '../../schemas';
import { resetMail, resetUrl } from './mails';
import type { ConfirmResetInput, ResetLink } from './recovery.schema';

/**
 * Account recovery: a single-use link to set a new password, mailed on request (to anyone who
 * knows the email, so the answer and its timing are the same whether it has an account) or made
 * by an admin to hand over. Tokens are 256 random bits, stored only as SHA-256 hashes.
 */

const QUARTER_HOUR = 15 * 60;

/**
 * Mails a reset link when the email has an account; answers the same, in about the same time,
 * when it has none: both paths count the request and run the one statement that stores a token
 * only for an existing account, and the mail goes out in the background. At most
 * PASSWORD_RESETS_PER_QUARTER_HOUR requests per email (a mailbox is not flooded) and per client
 * address (no address sprays every email), whether the email has an account or not.
 */
export async function requestPasswordReset(ctx: Context, email: string): Promise<void> {
  const max = ctx.settings.passwordResetsPerQuarterHour;
  await assertWithinLimits(
    ctx,
    [
      { scope: 'reset-email', subject: email, max, windowSeconds: QUARTER_HOUR },
      { scope: 'reset-address', subject: ctx.clientAddress, max, windowSeconds: QUARTER_HOUR },
    ],
    'Too many password reset requests; try again later',
  );
  const token = generateRefreshToken();
  const user = await passwordResets.createResetForEmail(ctx.db, {
    email,
    tokenHash: hashToken(token),
    ttlSeconds: ctx.settings.passwordResetTtlSeconds,
  });
  if (user) ctx.mailer.post(resetMail(ctx, user, token));
}

/**
 * An admin's reset link for a user, to hand over where no mail is set up (or the mail does not
 * arrive). The admin learns the link, not the password: the user chooses it.
 */
export async function createResetLink(ctx: AuthedContext, userId: string): Promise<ResetLink> {
  if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only an admin may make a password reset link');
  const user = await loadOr404(userId, (id) => users.findUserById(ctx.db, id), 'User');
  const token = generateRefreshToken();
  const expiresAt = await ctx.db.transaction().execute(async (trx) => {
    const expires = await passwordResets.createResetForUser(trx, {
      userId: user.id,
      tokenHash: hashToken(token),
      ttlSeconds: ctx.settings.passwordResetTtlSeconds,
    });
    await recordAudit(trx, ctx, { action: 'user.reset_link_created', target: { type: 'user', id: user.id } });
    return expires;
  });
  ctx.log.info('password reset link made', {
    userId: user.id,
    by: ctx.actor.user.id,
    requestId: ctx.requestId,
  });
  return { url: resetUrl(ctx, token), expiresAt: toIso(expiresAt) };
}

const unusableToken = () =>
  validationError([{ field: 'token', message: 'This reset link is unknown, expired or already used' }]);

/**
 * Sets the password a reset link was made for: the link is spent (with every other live link of
 * the account), every session of the account ends, and a sign-in throttle on its email is lifted
 * (whoever holds the mailbox proved it). The token is looked at before the new password is
 * hashed, so a guessed token costs no hash; it is spent in the transaction that writes the
 * password, so of two confirmations exactly one counts.
 */
export async function confirmPasswordReset(ctx: Context, input: ConfirmResetInput): Promise<void> {
  const tokenHash = hashToken(input.token);
  if (!(await passwordResets.findResetUser(ctx.db, tokenHash))) throw unusableToken();
  const passwordHash = await hashPassword(input.password);
  const user = await ctx.db.transaction().execute(async (trx) => {
    const userId = await passwordResets.spendReset(trx, tokenHash);
    if (userId === undefined) throw unusableToken();
    const updated = await users.updateUser(trx, userId, { password_hash: passwordHash });
    if (!updated) throw unusableToken();
    await sessions.revokeOtherSessions(trx, { userId, keep: null, reason: 'password reset' });
    // No caller signed in: the event names the account's user, whose mailbox proved the right.
    await recordAudit(trx, ctx, {
      action: 'user.password_reset',
      target: { type: 'user', id: userId },
      changes: { password: PASSWORD_CHANGED },
      actorUserId: userId,
    });
    return updated;
  });
  await loginThrottle.forgiveSignInAttempt(ctx.db, { email: user.email, address: ctx.clientAddress });
  ctx.log.info('password reset', { userId: user.id, requestId: ctx.requestId });
}
