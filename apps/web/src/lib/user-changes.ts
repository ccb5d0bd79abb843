import type { Role } from '@/lib/trpc';

/**
 * What an account form sends to `users.patch`: only the fields that changed, so a rename needs no
 * password and an unchanged field is never written over a change made meanwhile elsewhere.
 */

/** An account's fields as last saved. */
export interface SavedAccount {
  username: string;
  email: string;
  role: Role;
}

/** The fields as the form has them, parsed by the procedure's schema (trimmed, lower-cased). */
export interface EditedAccount {
  username?: string | undefined;
  email?: string | undefined;
  role?: Role | undefined;
  /** A new password; absent or empty keeps the one there is. */
  password?: string | undefined;
}

export interface AccountChanges {
  username?: string;
  email?: string;
  role?: Role;
  password?: string;
}

/** The fields of `edited` that differ from `saved` (a password whenever one was typed). */
export function changedFields(saved: SavedAccount, edited: EditedAccount): AccountChanges {
  const changes: AccountChanges = {};
  if (edited.username !== undefined && edited.username !== saved.username) changes.username = edited.username;
  if (edited.email !== undefined && edited.email !== saved.email) changes.email = edited.email;
  if (edited.role !== undefined && edited.role !== saved.role) changes.role = edited.role;
  if (edited.password) changes.password = edited.password;
  return changes;
}

/**
 * Whether the API asks for the caller's password now: to change their OWN email or password (a
 * stolen session alone must not take the account). A rename or a role needs none, nor an admin's
 * change of another account.
 */
export function needsCurrentPassword(changes: AccountChanges, self: boolean): boolean {
  return self && (changes.email !== undefined || changes.password !== undefined);
}

/**
 * What `users.patch` is sent: the account, its changes, and the caller's current password only
 * when `needsCurrentPassword` said the API asks for it.
 */
export function patchInput(
  userId: string,
  changes: AccountChanges,
  needed: boolean,
  currentPassword: string | undefined,
) {
  return { userId, ...changes, ...(needed ? { currentPassword } : {}) };
}
