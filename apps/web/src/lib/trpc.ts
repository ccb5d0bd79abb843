import type { AppRouter, RouterOutputs } from '@music/api-router/types';
import { createTRPCReact } from '@trpc/react-query';

/** The typed client of the API's procedures (the same ones `/v1` serves). */
export const trpc = createTRPCReact<AppRouter>();

export type User = RouterOutputs['auth']['me'];
export type Role = User['role'];
export type Artist = RouterOutputs['artists']['get'];
export type Song = RouterOutputs['songs']['get'];
export type Playlist = RouterOutputs['playlists']['get'];
