import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './router';

/**
 * The procedures' inputs and outputs as types, for clients (the console, test helpers): derived
 * from the router, never restated. Types only, so importing this entry brings no server code
 * into a browser bundle.
 */
export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
