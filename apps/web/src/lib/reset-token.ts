import { confirmResetInput } from '@music/api-router/schemas';

/**
 * The token of a password-reset link. The API mails `…/reset-password#token=<token>`: in the
 * fragment, which browsers never send to a server, so no access log or Referer carries it.
 */

/** What the address's fragment holds: no token, one the API could take, or one it never made. */
export type ResetToken = { kind: 'none' } | { kind: 'token'; token: string } | { kind: 'malformed' };

const tokenSchema = confirmResetInput.shape.token;

/** Reads `#token=…` (as `location.hash` gives it, with or without its `#`). */
export function readResetToken(hash: string): ResetToken {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  // Read as URL parameters: a mail client or a person may add others, or encode the token.
  const token = new URLSearchParams(fragment).get('token')?.trim() ?? '';
  if (token === '') return { kind: 'none' };
  // Longer than any token the API makes: no use sending it, the link is as good as unknown.
  return tokenSchema.safeParse(token).success ? { kind: 'token', token } : { kind: 'malformed' };
}

/** The address without its fragment, for history.replaceState once the token is read. */
export function withoutFragment(location: { pathname: string; search: string }): string {
  return `${location.pathname}${location.search}`;
}
