import type { Context, Mail } from '../../context';

/**
 * The mails the service sends, in plain text (no tracking, no remote images): what a person needs
 * to act, and what to do if it was not them.
 */

const consoleUrl = (ctx: Pick<Context, 'settings'>) => ctx.settings.consoleUrl.replace(/\/+$/, '');

/**
 * Where a reset token is used: the console's reset page, the token in the fragment, which the
 * browser keeps to itself (never sent to a server, so no access log or Referer carries it).
 */
export function resetUrl(ctx: Pick<Context, 'settings'>, token: string): string {
  return `${consoleUrl(ctx)}/reset-password#token=${token}`;
}

export function welcomeMail(ctx: Pick<Context, 'settings'>, user: { username: string; email: string }): Mail {
  return {
    to: user.email,
    subject: 'Welcome to the music catalogue',
    text: [
      `Hello ${user.username},`,
      '',
      `an account of the music catalogue was made with this email address (${user.email}).`,
      `Sign in at ${consoleUrl(ctx)}/sign-in`,
      '',
      'If it was not you, someone used your address: choose a new password with',
      `"Forgot password?" at ${consoleUrl(ctx)}/sign-in and the account is yours.`,
    ].join('\n'),
  };
}

export function resetMail(
  ctx: Pick<Context, 'settings'>,
  user: { username: string; email: string },
  token: string,
): Mail {
  const minutes = Math.round(ctx.settings.passwordResetTtlSeconds / 60);
  return {
    to: user.email,
    subject: 'Reset your music catalogue password',
    text: [
      `Hello ${user.username},`,
      '',
      `someone, we hope you, asked to reset the password of the account ${user.email}.`,
      `Choose a new password within ${minutes} minutes here (the link works once):`,
      '',
      resetUrl(ctx, token),
      '',
      'Setting a new password signs the account out everywhere.',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}
