import { type AnyTRPCProcedure, TRPCError } from '@trpc/server';
import type { Context } from './context';
import { artistsRouter } from './modules/artists/artists.router';
import { authRouter } from './modules/auth/auth.router';
import { playlistsRouter } from './modules/playlists/playlists.router';
import { songsRouter } from './modules/songs/songs.router';
import { usersRouter } from './modules/users/users.router';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  artists: artistsRouter,
  songs: songsRouter,
  playlists: playlistsRouter,
});

export type AppRouter = typeof appRouter;

type ProcedureKind = 'query' | 'mutation';
const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;

/** The kind of the procedure at a dotted path (`songs.get`), or undefined when there is none. */
export function procedureKind(path: string): ProcedureKind | undefined {
  return Object.hasOwn(procedures, path) ? (procedures[path]!._def.type as ProcedureKind) : undefined;
}

/** Every procedure's dotted path with its kind. */
export function procedureKinds(): Record<string, ProcedureKind> {
  return Object.fromEntries(
    Object.entries(procedures).map(([path, p]) => [path, p._def.type as ProcedureKind]),
  );
}

/**
 * Calls the procedure at a dotted path with the options `createCaller` passes it (input and
 * output validation and every middleware, as on `/trpc`): how both HTTP front doors of the API
 * reach a procedure. Called directly rather than through `createCaller(ctx)`, whose per-request
 * proxy, path join and lookup added several awaits to every call for nothing: the path is known.
 */
export function callProcedure(ctx: Context, path: string, input: unknown): Promise<unknown> {
  const procedure = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
  if (!procedure) {
    return Promise.reject(
      new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${path}"` }),
    );
  }
  return procedure({
    ctx,
    path,
    getRawInput: async () => input,
    type: procedure._def.type,
    signal: undefined,
    batchIndex: 0,
  });
}
