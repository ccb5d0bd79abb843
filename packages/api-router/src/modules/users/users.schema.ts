import type { UserRow } from '@music/db';
import { z } from 'zod';
import { cursorListOf, idParam, idsFilter, listQuery, sortQuery, text } from '../../schemas';
import { recordOf, recordSchema } from '../common/records.schema';

export const roleSchema = z.enum(['user', 'artist', 'admin']).meta({ id: 'Role' });

/** Normalised here, once: every email the service stores or looks up went through this. */
export const emailSchema = z.string().trim().toLowerCase().max(254).email().meta({
  description: 'Email address; compared and stored trimmed and lower-cased',
  example: 'ada@example.com',
});

export const passwordSchema = z
  .string()
  .min(8)
  .max(128)
  .meta({ description: '8 to 128 characters', format: 'password' });

export const userSchema = recordSchema('User', {
  // The same bounds as the input: the document tells clients what they can get back.
  username: z.string().min(1).max(50),
  email: z.string().min(1).max(254).meta({ format: 'email' }),
  role: roleSchema,
});

export type User = z.infer<typeof userSchema>;

export function toUser(
  row: Pick<UserRow, 'id' | 'username' | 'email' | 'role' | 'created_at' | 'updated_at'>,
): User {
  return recordOf(row, { username: row.username, email: row.email, role: row.role });
}

/**
 * Format characters (Unicode category Cf: bidi overrides and isolates, zero-width spaces and
 * joiners) make one username look like another, or turn the text around it ("by …" lines):
 * refused in the name other people see. Titles and other text keep them (an emoji family is
 * joined by zero-width joiners, Persian needs the non-joiner).
 */
const FORMAT_CHARACTER = /\p{Cf}/u;

export const usernameSchema = text(1, 50)
  .refine(
    (value) => !FORMAT_CHARACTER.test(value),
    'Must not contain invisible formatting characters (bidi controls, zero-width characters)',
  )
  .meta({ description: '1 to 50 characters after trimming; no control or invisible formatting characters' });

const userFields = {
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: roleSchema.optional().meta({ description: 'Defaults to `user`; other roles need an admin' }),
};

export const createUserInput = z.strictObject(userFields);
export type CreateUserInput = z.infer<typeof createUserInput>;

export const userIdInput = z.strictObject({ userId: idParam('user') });

/**
 * The caller's own password now, which changing their own email or password needs (a stolen
 * access token alone must not take the account). Any length a password can have, as at sign-in.
 */
export const currentPasswordSchema = z.string().min(1).max(1024).meta({
  format: 'password',
  description:
    'Your password now: required to change your own email or password (admins too, on their own account)',
});

export const updateUserInput = z.strictObject({
  userId: idParam('user'),
  ...userFields,
  currentPassword: currentPasswordSchema.optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserInput>;

export const patchUserInput = z.strictObject({
  userId: idParam('user'),
  username: userFields.username.optional(),
  email: userFields.email.optional(),
  password: userFields.password.optional(),
  currentPassword: currentPasswordSchema.optional(),
  role: roleSchema.optional().meta({ description: 'Admins only (others: the role they have, or 403)' }),
});
export type PatchUserInput = z.infer<typeof patchUserInput>;

export const setRoleInput = z.strictObject({ userId: idParam('user'), role: roleSchema });
export type SetRoleInput = z.infer<typeof setRoleInput>;

/** How many ids `GET /users?ids` takes: one page's worth at the largest `limit`. */
export const MAX_USER_IDS = 100;

/** The fields `GET /users` can be ordered by. */
export const USER_SORT_FIELDS = ['username', 'email', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export const listUsersInput = z.strictObject({
  role: roleSchema.optional().meta({ description: 'Only users with this role' }),
  // NFC like the stored text, so composed and decomposed input find the same users.
  search: text(0, 254)
    .optional()
    .meta({ description: 'Case-insensitive substring of the username or the email' }),
  sort: sortQuery(USER_SORT_FIELDS),
  ids: idsFilter('user', MAX_USER_IDS, {
    absent: 'ids that name nobody are simply absent, and the other filters still apply.',
    resolves: 'the accounts a client holds the ids of',
  }),
  ...listQuery,
});
export type ListUsersInput = z.infer<typeof listUsersInput>;

export const userListSchema = cursorListOf(userSchema).meta({ id: 'UserList' });

/**
 * The public name of a user: what `GET /profiles` shows of another listener, so a playlist can
 * say whose it is. Its fields are `User`'s own, so they carry the same bounds.
 */
export const profileSchema = z
  .object({ id: userSchema.shape.id, username: userSchema.shape.username })
  .meta({ id: 'Profile', description: 'A user’s public name: never their email or role' });

export type Profile = z.infer<typeof profileSchema>;

export const toProfile = (row: Pick<UserRow, 'id' | 'username'>): Profile => ({
  id: row.id,
  username: row.username,
});

/** How many ids `GET /profiles?ids` takes: one page's worth at the largest `limit`. */
export const MAX_PROFILE_IDS = 100;

export const listProfilesInput = z.strictObject({
  ids: idsFilter('user', MAX_PROFILE_IDS, {
    absent: 'ids that name nobody, or a user you may not see, are simply absent.',
    resolves: 'the owners of a page of playlists',
  }),
  // Username only: matching emails would let a caller probe for them.
  search: text(0, 50).optional().meta({ description: 'Case-insensitive substring of the username' }),
  ...listQuery,
});
export type ListProfilesInput = z.infer<typeof listProfilesInput>;

export const profileListSchema = cursorListOf(profileSchema).meta({ id: 'ProfileList' });
