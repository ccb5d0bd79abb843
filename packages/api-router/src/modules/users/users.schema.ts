import type { UserRow } from '@music/db';
import { z } from 'zod';
import { idParam, listOf, pageQuery, sortQuery, text } from '../../schemas';
import { timestamps, timestampsOf } from '../shared/records.schema';

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

export const userSchema = z
  .object({
    id: z.uuid(),
    // The same bounds as the input: the document tells clients what they can get back.
    username: z.string().min(1).max(50),
    email: z.string().min(1).max(254).meta({ format: 'email' }),
    role: roleSchema,
    ...timestamps,
  })
  .meta({ id: 'User' });

export type User = z.infer<typeof userSchema>;

export function toUser(
  row: Pick<UserRow, 'id' | 'username' | 'email' | 'role' | 'created_at' | 'updated_at'>,
): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    ...timestampsOf(row),
  };
}

const userFields = {
  username: text(1, 50).meta({ description: '1 to 50 characters after trimming' }),
  email: emailSchema,
  password: passwordSchema,
  role: roleSchema.optional().meta({ description: 'Defaults to `user`; other roles need an admin' }),
};

export const createUserInput = z.strictObject(userFields);
export type CreateUserInput = z.infer<typeof createUserInput>;

export const userIdInput = z.strictObject({ userId: idParam('user') });

export const updateUserInput = z.strictObject({ userId: idParam('user'), ...userFields });
export type UpdateUserInput = z.infer<typeof updateUserInput>;

export const setRoleInput = z.strictObject({ userId: idParam('user'), role: roleSchema });
export type SetRoleInput = z.infer<typeof setRoleInput>;

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
  ...pageQuery,
});
export type ListUsersInput = z.infer<typeof listUsersInput>;

export const userListSchema = listOf(userSchema).meta({ id: 'UserList' });
