import type { AppRouter } from '@music/api-router';
import { createTRPCReact, type inferReactQueryProcedureOptions } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';

/** The typed client of the API's procedures (the same ones `/v1` serves). */
export const trpc = createTRPCReact<AppRouter>();

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ReactQueryOptions = inferReactQueryProcedureOptions<AppRouter>;

export type User = RouterOutputs['auth']['me'];
export type Role = User['role'];
export type Artist = RouterOutputs['artists']['get'];
export type Song = RouterOutputs['songs']['get'];
export type Playlist = RouterOutputs['playlists']['get'];
