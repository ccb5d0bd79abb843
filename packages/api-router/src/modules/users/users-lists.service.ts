import { type OrderKey, users } from '@music/db';
import { AppError } from '../../errors';
import { type AuthedContext, isAdmin, listPage, orderOr, sortOrder } from '../../kernel';
import { idList } from '../../schemas';
import {
  type ListProfilesInput,
  type ListUsersInput,
  toProfile,
  toUser,
  type UserSortField,
} from './users.schema';

/** The lists of accounts: the admins' list of users, and everyone's list of public names. */

/** The columns of the `sort` fields (no `sort`: the repository's default, oldest first). */
const SORT_COLUMNS: Record<UserSortField, users.UserSortColumn> = {
  username: 'username',
  email: 'email',
  createdAt: 'created_at',
};

const OLDEST_FIRST: readonly OrderKey<users.UserSortColumn>[] = [{ column: 'created_at', descending: false }];

export async function listUsers(ctx: AuthedContext, input: ListUsersInput) {
  if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only admins may list users');
  const sort = sortOrder(input.sort, SORT_COLUMNS);
  const filters = { role: input.role, search: input.search || undefined, ids: idList(input.ids), sort };
  return listPage(
    input,
    'users',
    orderOr(sort, OLDEST_FIRST),
    {
      byOffset: (window) => users.listUsers(ctx.db, { ...filters, ...window }),
      after: (window) => users.listUsersAfter(ctx.db, { ...filters, ...window }),
    },
    toUser,
  );
}

const BY_USERNAME: readonly OrderKey<string>[] = [{ column: 'username', descending: false }];

/**
 * The public names of users, ordered by username, then id. An admin sees every user; anyone else
 * sees themself and every user who owns at least one public playlist (making a playlist public
 * shows its owner's username with it). Everyone else is absent, not an error: `ids` naming
 * nobody, or a user the caller may not see, are left out. Only id and username, never more.
 */
export function listProfiles(ctx: AuthedContext, input: ListProfilesInput) {
  const filters = {
    visibleTo: isAdmin(ctx.actor) ? null : ctx.actor.user.id,
    ids: idList(input.ids),
    search: input.search || undefined,
  };
  return listPage(
    input,
    'profiles',
    BY_USERNAME,
    {
      byOffset: (window) => users.listProfiles(ctx.db, { ...filters, ...window }),
      after: (window) => users.listProfilesAfter(ctx.db, { ...filters, ...window }),
    },
    toProfile,
  );
}
