import { emptyOutput } from '../../schemas';
import { authedProcedure, publicProcedure, rest, router } from '../../trpc';
import { resetLinkSchema } from '../auth/recovery.schema';
import * as recovery from '../auth/recovery.service';
import {
  createUserInput,
  listProfilesInput,
  listUsersInput,
  patchUserInput,
  profileListSchema,
  setRoleInput,
  updateUserInput,
  userIdInput,
  userListSchema,
  userSchema,
} from './users.schema';
import * as users from './users.service';

export const usersRouter = router({
  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/users',
        tag: 'users',
        summary: 'List users (admin only)',
        description:
          'Oldest first unless `sort` says otherwise; ties are broken by id. `search` matches a ' +
          'substring of the username or the email, case-insensitively; `ids` (up to 100) answers ' +
          'only those users. `cursor` pages by cursor (see GET /songs).',
        errors: ['VALIDATION_FAILED', 'FORBIDDEN'],
      }),
    )
    .input(listUsersInput)
    .output(userListSchema)
    .query(({ ctx, input }) => users.listUsers(ctx, input)),

  profiles: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/profiles',
        tag: 'users',
        summary: 'Public names of users: yourself and owners of public playlists (admins: everyone)',
        description:
          'Only `id` and `username`, never the email or the role. An admin sees every user; anyone ' +
          'else sees themself and every user who owns at least one public playlist. Other users ' +
          'are simply absent (not an error), also when `ids` names them. Ordered by username, then ' +
          'id. `search` matches a substring of the username, case-insensitively.',
        errors: ['VALIDATION_FAILED'],
      }),
    )
    .input(listProfilesInput)
    .output(profileListSchema)
    .query(({ ctx, input }) => users.listProfiles(ctx, input)),

  create: publicProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/users',
        tag: 'users',
        summary: 'Sign up, or (admin) create a user with any role',
        status: 201,
        errors: ['FORBIDDEN', 'CONFLICT'],
      }),
    )
    .input(createUserInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => users.createUser(ctx, input)),

  get: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/users/{userId}',
        tag: 'users',
        summary: 'A user (yourself, or any as admin)',
        errors: ['FORBIDDEN'],
      }),
    )
    .input(userIdInput)
    .output(userSchema)
    .query(({ ctx, input }) => users.getUser(ctx, input.userId)),

  update: authedProcedure
    .meta(
      rest({
        method: 'PUT',
        path: '/users/{userId}',
        tag: 'users',
        summary: 'Replace a user (yourself, or any as admin; changing a role needs admin)',
        description:
          'Changing your own email or password needs `currentPassword` (422 on it when missing or ' +
          'wrong; a wrong one counts as a failed sign-in, so it can reach 429); repeating your ' +
          'current `password` changes none. A new password ends every other session of the user. ' +
          'Answers 409 when the email belongs to another user, or when it would demote the last ' +
          'admin. A replace that changes nothing leaves `updatedAt` and the ETag as they were. ' +
          'With `If-Match`, a stale ETag is 412 and nothing changes.',
        errors: ['FORBIDDEN', 'CONFLICT', 'PRECONDITION_FAILED', 'TOO_MANY_REQUESTS'],
      }),
    )
    .input(updateUserInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => users.updateUser(ctx, input)),

  patch: authedProcedure
    .meta(
      rest({
        method: 'PATCH',
        path: '/users/{userId}',
        tag: 'users',
        summary: 'Change some fields of a user (yourself, or any as admin; a role needs admin)',
        description:
          'Only the fields given change: a rename needs no password. Changing your own email or ' +
          'password needs `currentPassword` (422 on it when missing or wrong; a wrong one counts as ' +
          'a failed sign-in, so it can reach 429). A new password ends every other session of the ' +
          'user (all of them when an admin sets it). 409 when the email belongs to another user or ' +
          'the change would demote the last admin; with `If-Match`, a stale ETag is 412.',
        errors: ['FORBIDDEN', 'CONFLICT', 'PRECONDITION_FAILED', 'TOO_MANY_REQUESTS'],
      }),
    )
    .input(patchUserInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => users.patchUser(ctx, input)),

  delete: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/users/{userId}',
        tag: 'users',
        summary: 'Delete a user with their playlists and sessions',
        description:
          'An artist they were linked to stays, unlinked. The last admin cannot be deleted (409). ' +
          'With `If-Match`, a stale ETag is 412 and nothing changes.',
        status: 204,
        errors: ['FORBIDDEN', 'CONFLICT', 'PRECONDITION_FAILED'],
      }),
    )
    .input(userIdInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => users.deleteUser(ctx, input.userId)),

  setRole: authedProcedure
    .meta(
      rest({
        method: 'PUT',
        path: '/users/{userId}/role',
        tag: 'users',
        summary: "Change a user's role (admin only)",
        description:
          'Changes the role and nothing else. Any other caller gets 403, whatever the id. Demoting ' +
          'the last admin is 409: there is always an admin. Setting the role a user already has ' +
          'changes nothing (`updatedAt` and the ETag stay). With `If-Match`, a stale ETag is 412.',
        errors: ['FORBIDDEN', 'CONFLICT', 'PRECONDITION_FAILED'],
      }),
    )
    .input(setRoleInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => users.setRole(ctx, input)),

  passwordResetLink: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/users/{userId}/password-reset',
        tag: 'users',
        summary: 'Make a link for a user to set a new password (admin only)',
        description:
          'For when no mail is set up, or it does not arrive: hand the link to its user. It works ' +
          'once, for 30 minutes; setting the password ends every session of the user. Any other ' +
          'caller gets 403, whatever the id. API keys cannot make one.',
        status: 201,
        errors: ['FORBIDDEN'],
        keyAccess: 'session',
      }),
    )
    .input(userIdInput)
    .output(resetLinkSchema)
    .mutation(({ ctx, input }) => recovery.createResetLink(ctx, input.userId)),
});
