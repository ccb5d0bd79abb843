import type { AppRouter } from '@music/api-router/types';
import { createTRPCClient, httpLink } from '@trpc/client';
import { fake, procedure, request } from './fake-api';

/**
 * The console's typed tRPC client as the page builds it (providers.tsx: httpLink to /api/trpc),
 * sent through the console's own /api/trpc route (loaded against the fake API by startFakeApi)
 * with the session cookie `access`.
 */
export function consoleClient(access = 'access-1') {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: 'http://console.test/api/trpc',
        fetch: async (url, init) => {
          const { pathname, search } = new URL(String(url));
          const method = init?.method === 'POST' ? 'POST' : 'GET';
          const req = request(`${pathname}${search}`, {
            method,
            cookies: { mc_access: access },
            ...(typeof init?.body === 'string' ? { body: init.body } : {}),
          });
          const name = pathname.slice('/api/trpc/'.length);
          return fake.trpcRoute[method](req, procedure(name));
        },
      }),
    ],
  });
}
