import { emptyOutput } from '../../schemas';
import { authedProcedure, publicProcedure, rest, router } from '../../trpc';
import {
  createUserInput,
  listUsersInput,
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
        errors: ['FORBIDDEN'],
      }),
    )
    .input(listUsersInput)
    .output(userListSchema)
    .query(({ ctx, input }) => users.listUsers(ctx, input)),

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
        errors: ['FORBIDDEN', 'CONFLICT'],
      }),
    )
    .input(updateUserInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => users.updateUser(ctx, input)),

  delete: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/users/{userId}',
        tag: 'users',
        summary: 'Delete a user with their playlists and sessions',
        status: 204,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(userIdInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => users.deleteUser(ctx, input.userId)),
});
