import 'server-only';
import type { AppRouter } from '@music/api-router/types';
import { type DehydratedState, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import { createServerSideHelpers } from '@trpc/react-query/server';
import { cookies, headers } from 'next/headers';
import type { ReactNode } from 'react';
import { apiClient } from './api-client';
import { ACCESS_COOKIE, forwardedFor } from './session';

type Helpers = ReturnType<typeof createServerSideHelpers<AppRouter>>;

/**
 * A page's first data, fetched while the server renders it (prefetch and hydrate): `work` asks
 * the API for what the page's client components will ask, under the same query keys, and the
 * answers go to the browser inside the page, so it opens with its record instead of a spinner
 * and a second round trip. Only with a live access cookie: the server never refreshes a session
 * (the browser does, one tab at a time), so without one, or when the API refuses the token or is
 * away, nothing is prefetched and the page asks as before. Failed queries are not sent.
 */
export async function prefetched(
  work: (api: Helpers) => Promise<unknown>,
): Promise<DehydratedState | undefined> {
  const access = (await cookies()).get(ACCESS_COOKIE)?.value;
  if (!access) return undefined;
  // The browser's address, as on the page's own calls: the API budgets by it.
  const address = forwardedFor({ headers: await headers() });
  const api = createServerSideHelpers<AppRouter>({
    client: apiClient({
      authorization: `Bearer ${access}`,
      ...address,
    }),
    queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  });
  // prefetch() never throws: a refused or failed query is simply left out of the state.
  await work(api);
  return api.dehydrate();
}

/** `children`, rendered with what `work` prefetched already in their query cache. */
export async function Prefetched({
  work,
  children,
}: {
  work: (api: Helpers) => Promise<unknown>;
  children: ReactNode;
}) {
  return <HydrationBoundary state={await prefetched(work)}>{children}</HydrationBoundary>;
}
