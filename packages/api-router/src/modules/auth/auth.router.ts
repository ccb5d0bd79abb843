import { emptyOutput } from '../../schemas';
import { authedProcedure, publicProcedure, rest, router } from '../../trpc';
import { toUser, userSchema } from '../users/users.schema';
import { loginInput, refreshInput, tokenResponseSchema } from './auth.schema';
import * as auth from './auth.service';
import { confirmResetInput, requestResetInput } from './recovery.schema';
import * as recovery from './recovery.service';

export const authRouter = router({
  login: publicProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/auth/login',
        tag: 'auth',
        summary: 'Sign in with email and password',
        errors: ['UNAUTHORIZED', 'TOO_MANY_REQUESTS'],
        keyAccess: 'any',
      }),
    )
    .input(loginInput)
    .output(tokenResponseSchema)
    .mutation(({ ctx, input }) => auth.login(ctx, input)),

  refresh: publicProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/auth/refresh',
        tag: 'auth',
        summary: 'Exchange a refresh token for new tokens (the old one stops working)',
        errors: ['UNAUTHORIZED'],
        keyAccess: 'any',
      }),
    )
    .input(refreshInput)
    .output(tokenResponseSchema)
    .mutation(({ ctx, input }) => auth.refresh(ctx, input.refreshToken)),

  logout: authedProcedure
    .meta(
      rest({ method: 'POST', path: '/auth/logout', tag: 'auth', summary: 'End this session', status: 204 }),
    )
    .output(emptyOutput)
    .mutation(({ ctx }) => auth.logout(ctx)),

  me: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/auth/me',
        tag: 'auth',
        summary: 'The signed-in user (with an API key: the key’s owner)',
        keyAccess: 'any',
      }),
    )
    .output(userSchema)
    .query(({ ctx }) => toUser(ctx.actor.user)),

  requestPasswordReset: publicProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/auth/password-reset',
        tag: 'auth',
        summary: 'Mail a link to set a new password (the same answer whether the email has an account)',
        status: 202,
        errors: ['TOO_MANY_REQUESTS'],
        keyAccess: 'any',
      }),
    )
    .input(requestResetInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => recovery.requestPasswordReset(ctx, input.email)),

  resetPassword: publicProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/auth/password-reset/confirm',
        tag: 'auth',
        summary: 'Set a new password with the token of a reset link; every session of the account ends',
        status: 204,
        keyAccess: 'any',
      }),
    )
    .input(confirmResetInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => recovery.confirmPasswordReset(ctx, input)),
});
