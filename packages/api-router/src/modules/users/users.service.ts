import { hashPassword, verifyPassword } from '@music/auth';
import {
  artists,
  type Db,
  isUniqueViolation,
  isUuid,
  playlists,
  sessions,
  type UserRow,
  type UserUpdate,
  users,
  uuidv7,
} from '@music/db';
import { AUDITED_FIELDS, changesOf, PASSWORD_CHANGED, recordAudit } from '../../audit';
import type { Actor, Context } from '../../context';
import { AppError, validationError } from '../../errors';
import { type AuthedContext, assertPrecondition, assertWithinLimits, isAdmin, loadOr404 } from '../../kernel';
import { proveOwnPassword } from '../auth/auth.service';
import { welcomeMail } from '../auth/mails';
import { toPlaylist } from '../playlists/playlists.schema';
import { keyCredentialsError, keyKeepsPassword } from './key-credentials';
import { auditUserWrite } from './users.audit';
import {
  type CreateUserInput,
  type PatchUserInput,
  type SetRoleInput,
  toUser,
  type UpdateUserInput,
  type User,
  userSchema,
} from './users.schema';

const emailTaken = () => new AppError('CONFLICT', 'A user with this email already exists');
const notFound = () => new AppError('NOT_FOUND', 'User not found');

/**
 * Non-admins may only touch their own account; any other id is 403, existing or not. `userId`
 * is the parsed input, already lower-cased (UUIDs are case-insensitive, stored lower-case).
 */
function assertSelfOrAdmin(actor: Actor, userId: string): void {
  if (!isAdmin(actor) && actor.user.id !== userId) {
    throw new AppError('FORBIDDEN', 'You may only access your own account');
  }
}

const loadUser = (ctx: Context, userId: string) =>
  loadOr404(userId, (id) => users.findUserById(ctx.db, id), 'User');

export { listProfiles, listUsers } from './users-lists.service';

/**
 * Public sign-up; an admin may also create accounts with any role. An anonymous sign-up costs a
 * password hash: each client address gets SIGNUPS_PER_ADDRESS_PER_HOUR of them. The new account's
 * email gets a welcome mail (so a mailbox learns of an account made in its name).
 */
export async function createUser(ctx: Context, input: CreateUserInput): Promise<User> {
  const role = input.role ?? 'user';
  if (role !== 'user' && !(ctx.actor && isAdmin(ctx.actor))) {
    throw new AppError('FORBIDDEN', `Only an admin may create a user with role '${role}'`);
  }
  if (!ctx.actor) {
    const limit = {
      scope: 'signup-address' as const,
      subject: ctx.clientAddress,
      max: ctx.settings.signupsPerAddressPerHour,
      windowSeconds: 3600,
    };
    await assertWithinLimits(ctx, [limit], 'Too many sign-ups from this address; try again later');
  }
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const inserted = await users.insertUser(trx, {
        id: uuidv7(),
        username: input.username,
        email: input.email,
        password_hash: passwordHash,
        role,
      });
      await recordAudit(trx, ctx, {
        action: 'user.created',
        target: { type: 'user', id: inserted.id },
        changes: { ...changesOf(null, toUser(inserted), AUDITED_FIELDS.user), password: PASSWORD_CHANGED },
        record: toUser(inserted),
      });
      return inserted;
    });
    if (!ctx.actor) ctx.mailer.post(welcomeMail(ctx, row));
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw emailTaken();
    throw error;
  }
}

export async function getUser(ctx: AuthedContext, userId: string): Promise<User> {
  assertSelfOrAdmin(ctx.actor, userId);
  return toUser(await loadUser(ctx, userId));
}

/**
 * Runs `change` in a transaction holding the admin rows and the user's row (in that order, the
 * same for every writer, so writers queue rather than deadlock): `admins` are the admins that
 * stay admins until commit, `row` the user as it is now. A malformed or unknown id is 404.
 * A unique violation (the email) leaves the transaction rolled back and becomes 409.
 */
async function withUserLocked<T>(
  ctx: Context,
  userId: string,
  change: (trx: Db, row: UserRow, admins: readonly string[]) => Promise<T>,
): Promise<T> {
  if (!isUuid(userId)) throw notFound();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const admins = await users.lockAdmins(trx);
      const row = await users.lockUser(trx, userId);
      if (!row) throw notFound();
      return change(trx, row, admins);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw emailTaken();
    throw error;
  }
}

/**
 * There is always an admin: `row` may lose its admin role (`role` another one, or null when the
 * row is deleted) only while another locked admin stays.
 */
function assertKeepsAnAdmin(row: UserRow, role: User['role'] | null, admins: readonly string[]): void {
  if (row.role !== 'admin' || role === 'admin') return;
  if (admins.some((id) => id !== row.id)) return;
  throw new AppError(
    'CONFLICT',
    'This is the last admin: make another user an admin first, there must always be one',
  );
}

/** Writes the fields that differ from `row`; with none, `row` as it is (its updatedAt untouched). */
async function applyChanges(trx: Db, row: UserRow, patch: UserUpdate): Promise<User> {
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([key, value]) => value !== row[key as keyof UserRow]),
  ) as UserUpdate;
  if (Object.keys(changed).length === 0) return toUser(row);
  const updated = await users.updateUser(trx, row.id, changed);
  if (!updated) throw notFound();
  return toUser(updated);
}

/**
 * The hash to store for `password` (undefined: none). A PUT sends the password every time: when
 * the stored hash already verifies it, it is neither re-hashed (a new salt would be a change) nor
 * written. A PATCH sends one only to set it.
 */
async function newPasswordHash(
  row: UserRow,
  password: string | undefined,
  mode: 'replace' | 'patch',
): Promise<string | undefined> {
  if (password === undefined) return undefined;
  if (mode === 'patch') return hashPassword(password);
  return (await verifyPassword(row.password_hash, password)) ? undefined : hashPassword(password);
}

function assertMayTakeRole(ctx: AuthedContext, row: UserRow, role: User['role']): void {
  if (role !== row.role && !isAdmin(ctx.actor)) {
    throw new AppError('FORBIDDEN', 'Only an admin may change a role');
  }
}

/** What a PUT (`replace`: every field given) or a PATCH (`patch`: some) asks of an account. */
interface UserWrite {
  username?: string | undefined;
  email?: string | undefined;
  password?: string | undefined;
  currentPassword?: string | undefined;
  role?: User['role'] | undefined;
}

const currentPasswordError = (message: string) => validationError([{ field: 'currentPassword', message }]);

/**
 * The new password hash a write of the caller's OWN account leaves (undefined: none), once it
 * has shown the right to change its credentials: a new email or password needs `currentPassword`,
 * checked as a sign-in is (counted, so guesses through a stolen token reach 429). A PUT repeating
 * the current password changes none (a 1.0 client renaming itself needs no `currentPassword`);
 * that repetition is checked as a sign-in too, since a wrong one would otherwise tell a thief
 * whether a guess was right, unthrottled.
 */
async function ownCredentials(
  ctx: AuthedContext,
  row: UserRow,
  write: UserWrite,
  mode: 'replace' | 'patch',
): Promise<string | undefined> {
  const changesEmail = write.email !== undefined && write.email !== row.email;
  if (write.currentPassword !== undefined) {
    if (!(await proveOwnPassword(ctx, row.email, write.currentPassword))) {
      throw currentPasswordError('Does not match your current password');
    }
    return newPasswordHash(row, write.password, mode);
  }
  const required = 'Your current password is required to change your email or password';
  if (changesEmail || (write.password !== undefined && mode === 'patch'))
    throw currentPasswordError(required);
  if (write.password !== undefined && !(await proveOwnPassword(ctx, row.email, write.password))) {
    throw currentPasswordError(required);
  }
  return undefined;
}

/**
 * A PUT or PATCH of an account: yourself, or anyone as admin; only an admin changes a role, and
 * never the last admin's. A new password ends every other session of the account (all of them
 * when an admin set it), in the same transaction.
 */
async function writeUser(
  ctx: AuthedContext,
  userId: string,
  write: UserWrite,
  mode: 'replace' | 'patch',
): Promise<User> {
  assertSelfOrAdmin(ctx.actor, userId);
  // Passwords are checked and hashed against this read, before any lock: argon2 takes tens of
  // milliseconds, too long to hold the admin rows. Under the lock it is redone only if the stored
  // hash changed meanwhile.
  const seen = await loadUser(ctx, userId);
  assertMayTakeRole(ctx, seen, write.role ?? seen.role);
  const byKey = ctx.actor.apiKey !== undefined;
  if (
    byKey &&
    ((write.email !== undefined && write.email !== seen.email) ||
      (mode === 'patch' && write.password !== undefined))
  ) {
    throw keyCredentialsError();
  }
  const self = seen.id === ctx.actor.user.id;
  // An admin sets another account's password without proving theirs.
  const passwordOf = (row: UserRow) =>
    byKey
      ? keyKeepsPassword(ctx, row, write.password, self)
      : self
        ? ownCredentials(ctx, row, write, mode)
        : newPasswordHash(row, write.password, mode);
  const seenHash = await passwordOf(seen);
  return withUserLocked(ctx, seen.id, async (trx, row, admins) => {
    const role = write.role ?? row.role;
    assertMayTakeRole(ctx, row, role);
    assertPrecondition(ctx, userSchema, toUser(row));
    assertKeepsAnAdmin(row, role, admins);
    const passwordHash = row.password_hash === seen.password_hash ? seenHash : await passwordOf(row);
    const user = await applyChanges(trx, row, {
      ...(write.username === undefined ? {} : { username: write.username }),
      ...(write.email === undefined ? {} : { email: write.email }),
      role,
      ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
    });
    await auditUserWrite(trx, ctx, row, user, passwordHash !== undefined);
    if (passwordHash !== undefined) {
      await sessions.revokeOtherSessions(trx, {
        userId: row.id,
        keep: self ? ctx.actor.sessionId : null,
        reason: 'password changed',
      });
    }
    return user;
  });
}

/** Full replace of the account (`role` optional). */
export function updateUser(ctx: AuthedContext, input: UpdateUserInput): Promise<User> {
  const { userId, ...write } = input;
  return writeUser(ctx, userId, write, 'replace');
}

/** Partial update of the account: the fields given, nothing else (a rename needs no password). */
export function patchUser(ctx: AuthedContext, input: PatchUserInput): Promise<User> {
  const { userId, ...write } = input;
  return writeUser(ctx, userId, write, 'patch');
}

/** Admin only, whatever the target: changes the role and nothing else. */
export async function setRole(ctx: AuthedContext, input: SetRoleInput): Promise<User> {
  if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only an admin may change a role');
  return withUserLocked(ctx, input.userId, async (trx, row, admins) => {
    assertPrecondition(ctx, userSchema, toUser(row));
    assertKeepsAnAdmin(row, input.role, admins);
    const user = await applyChanges(trx, row, { role: input.role });
    await auditUserWrite(trx, ctx, row, user, false);
    return user;
  });
}

/**
 * Their playlists and sessions go with them; an artist they managed stays, unlinked. The last
 * admin cannot be deleted.
 */
export async function deleteUser(ctx: AuthedContext, userId: string): Promise<void> {
  assertSelfOrAdmin(ctx.actor, userId);
  await withUserLocked(ctx, userId, async (trx, row, admins) => {
    assertPrecondition(ctx, userSchema, toUser(row));
    assertKeepsAnAdmin(row, null, admins);
    // What goes with the account, for the change feed: its playlists (deleted) and the artists
    // it managed (unlinked).
    const owned = await playlists.findPlaylistsOfUser(trx, row.id);
    const managed = await artists.findArtistIdsByUserId(trx, row.id);
    if (!(await users.deleteUser(trx, row.id))) throw notFound();
    await recordAudit(trx, ctx, {
      action: 'user.deleted',
      target: { type: 'user', id: row.id },
      changes: changesOf(toUser(row), null, AUDITED_FIELDS.user),
      record: toUser(row),
      alsoChanged: [
        ...owned.map((playlist) => ({
          type: 'playlist.deleted' as const,
          id: playlist.id,
          record: toPlaylist(playlist),
        })),
        ...managed.map((id) => ({ type: 'artist.updated' as const, id })),
      ],
    });
  });
}
