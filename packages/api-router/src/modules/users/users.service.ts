import { hashPassword } from '@music/auth';
import {
  deleteUser as deleteUserRow,
  findUserById,
  insertUser,
  isUniqueViolation,
  isUuid,
  listUsers as listUserRows,
  updateUser as updateUserRow,
  uuidv7,
} from '@music/db';
import type { Actor, Context } from '../../context';
import { AppError } from '../../errors';
import { pageWindow } from '../../schemas';
import {
  type CreateUserInput,
  type ListUsersInput,
  toUser,
  type UpdateUserInput,
  type User,
} from './users.schema';

const emailTaken = () => new AppError('CONFLICT', 'A user with this email already exists');

/** Non-admins may only touch their own account; any other id is 403, existing or not. */
function assertSelfOrAdmin(actor: Actor, userId: string): void {
  if (actor.user.role !== 'admin' && actor.user.id !== userId) {
    throw new AppError('FORBIDDEN', 'You may only access your own account');
  }
}

async function loadUser(ctx: Context, userId: string) {
  const row = isUuid(userId) ? await findUserById(ctx.db, userId) : undefined;
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  return row;
}

export async function listUsers(ctx: Context & { actor: Actor }, input: ListUsersInput) {
  if (ctx.actor.user.role !== 'admin') throw new AppError('FORBIDDEN', 'Only admins may list users');
  const { rows, total } = await listUserRows(ctx.db, { role: input.role, ...pageWindow(input) });
  return { data: rows.map(toUser), pagination: { page: input.page, limit: input.limit, total } };
}

/** Public sign-up; an admin may also create accounts with any role. */
export async function createUser(ctx: Context, input: CreateUserInput): Promise<User> {
  const role = input.role ?? 'user';
  if (role !== 'user' && ctx.actor?.user.role !== 'admin') {
    throw new AppError('FORBIDDEN', `Only an admin may create a user with role '${role}'`);
  }
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await insertUser(ctx.db, {
      id: uuidv7(),
      username: input.username,
      email: input.email,
      password_hash: passwordHash,
      role,
    });
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw emailTaken();
    throw error;
  }
}

export async function getUser(ctx: Context & { actor: Actor }, userId: string): Promise<User> {
  assertSelfOrAdmin(ctx.actor, userId);
  return toUser(await loadUser(ctx, userId));
}

export async function updateUser(ctx: Context & { actor: Actor }, input: UpdateUserInput): Promise<User> {
  assertSelfOrAdmin(ctx.actor, input.userId);
  const current = await loadUser(ctx, input.userId);
  const role = input.role ?? current.role;
  if (role !== current.role && ctx.actor.user.role !== 'admin') {
    throw new AppError('FORBIDDEN', 'Only an admin may change a role');
  }
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await updateUserRow(ctx.db, current.id, {
      username: input.username,
      email: input.email,
      password_hash: passwordHash,
      role,
    });
    if (!row) throw new AppError('NOT_FOUND', 'User not found');
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw emailTaken();
    throw error;
  }
}

/** Their playlists and sessions go with them; an artist they managed stays, unlinked. */
export async function deleteUser(ctx: Context & { actor: Actor }, userId: string): Promise<void> {
  assertSelfOrAdmin(ctx.actor, userId);
  const deleted = isUuid(userId) && (await deleteUserRow(ctx.db, userId));
  if (!deleted) throw new AppError('NOT_FOUND', 'User not found');
}
