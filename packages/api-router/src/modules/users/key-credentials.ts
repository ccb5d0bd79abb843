import { verifyPassword } from '@music/auth';
import type { UserRow } from '@music/db';
import { AppError } from '../../errors';
import type { AuthedContext } from '../../kernel';
import { proveOwnPassword } from '../auth/auth.service';

/** What an account write through an API key may not do: credentials stay with sessions. */
export const keyCredentialsError = () =>
  new AppError('FORBIDDEN', 'An API key never changes an email or a password; sign in to do it');

/**
 * A PUT through an API key may repeat the account's password (a 1.0 client renaming it), never
 * set another: a different one is a 403. Your own is checked as a sign-in is (counted), so a key
 * is no unthrottled way to guess it. Returns no new hash, ever.
 */
export async function keyKeepsPassword(
  ctx: AuthedContext,
  row: UserRow,
  password: string | undefined,
  self: boolean,
): Promise<undefined> {
  if (password === undefined) return undefined;
  const same = self
    ? await proveOwnPassword(ctx, row.email, password)
    : await verifyPassword(row.password_hash, password);
  if (!same) throw keyCredentialsError();
  return undefined;
}
