import { hashPassword } from '@music/auth';
import { isUniqueViolation, isUuid, type NewUser, type UserRow, users, uuidv7 } from '@music/db';
import type { Actor, Context } from '../../context';
import { AppError } from '../../errors';
import { type AuthedContext, isAdmin, loadOr404, page } from '../../kernel';
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
  if (!isAdmin(actor) && actor.user.id !== userId) {
    throw new AppError('FORBIDDEN', 'You may only access your own account');
  }
}

const loadUser = (ctx: Context, userId: string) =>
  loadOr404(userId, (id) => users.findUserById(ctx.db, id), 'User');

export async function listUsers(ctx: AuthedContext, input: ListUsersInput) {
  if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only admins may list users');
  return page(input, (window) => users.listUsers(ctx.db, { role: input.role, ...window }), toUser);
}

type UserFields = Pick<CreateUserInput, 'username' | 'email' | 'password'>;
/** The stored columns a sign-up or a replace writes. */
type UserWrite = Required<Omit<NewUser, 'id' | 'created_at' | 'updated_at'>>;

/** Stores an account's fields with the password hashed; a taken email is 409, a vanished row 404. */
async function writeUser(
  input: UserFields,
  role: User['role'],
  write: (fields: UserWrite) => Promise<UserRow | undefined>,
): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await write({
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

/** Public sign-up; an admin may also create accounts with any role. */
export async function createUser(ctx: Context, input: CreateUserInput): Promise<User> {
  const role = input.role ?? 'user';
  if (role !== 'user' && !(ctx.actor && isAdmin(ctx.actor))) {
    throw new AppError('FORBIDDEN', `Only an admin may create a user with role '${role}'`);
  }
  return writeUser(input, role, (fields) => users.insertUser(ctx.db, { id: uuidv7(), ...fields }));
}

export async function getUser(ctx: AuthedContext, userId: string): Promise<User> {
  assertSelfOrAdmin(ctx.actor, userId);
  return toUser(await loadUser(ctx, userId));
}

export async function updateUser(ctx: AuthedContext, input: UpdateUserInput): Promise<User> {
  assertSelfOrAdmin(ctx.actor, input.userId);
  const current = await loadUser(ctx, input.userId);
  const role = input.role ?? current.role;
  if (role !== current.role && !isAdmin(ctx.actor)) {
    throw new AppError('FORBIDDEN', 'Only an admin may change a role');
  }
  return writeUser(input, role, (fields) => users.updateUser(ctx.db, current.id, fields));
}

/** Their playlists and sessions go with them; an artist they managed stays, unlinked. */
export async function deleteUser(ctx: AuthedContext, userId: string): Promise<void> {
  assertSelfOrAdmin(ctx.actor, userId);
  const deleted = isUuid(userId) && (await users.deleteUser(ctx.db, userId));
  if (!deleted) throw new AppError('NOT_FOUND', 'User not found');
}
