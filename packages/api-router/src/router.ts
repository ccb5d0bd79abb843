import type { Context } from './context';
import { artistsRouter } from './modules/artists/artists.router';
import { authRouter } from './modules/auth/auth.router';
import { playlistsRouter } from './modules/playlists/playlists.router';
import { songsRouter } from './modules/songs/songs.router';
import { usersRouter } from './modules/users/users.router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  artists: artistsRouter,
  songs: songsRouter,
  playlists: playlistsRouter,
});

export type AppRouter = typeof appRouter;

type ProcedureKind = 'query' | 'mutation';
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: ProcedureKind } }>;
const createCaller = createCallerFactory(appRouter);

/** The kind of the procedure at a dotted path (`songs.get`), or undefined when there is none. */
export function procedureKind(path: string): ProcedureKind | undefined {
  return Object.hasOwn(procedures, path) ? procedures[path]!._def.type : undefined;
}

/** Every procedure's dotted path with its kind. */
export function procedureKinds(): Record<string, ProcedureKind> {
  return Object.fromEntries(Object.entries(procedures).map(([path, p]) => [path, p._def.type]));
}

/**
 * Calls the procedure at a dotted path through `createCaller` (input and output validation and
 * every middleware, as on `/trpc`): how both HTTP front doors of the API reach a procedure.
 */
export function callProcedure(ctx: Context, path: string, input: unknown): Promise<unknown> {
  const [group, name] = path.split('.') as [string, string];
  const caller = createCaller(ctx) as unknown as Record<
    string,
    Record<string, (i: unknown) => Promise<unknown>>
  >;
  return caller[group]![name]!(input);
}
