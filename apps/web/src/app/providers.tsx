'use client';

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { httpLink } from '@trpc/client';
import { type ReactNode, useState } from 'react';
import { isUnauthorized } from '@/lib/errors';
import { endSessionInPlace } from '@/lib/session-ended';
import { browserSessionFetch } from '@/lib/session-refresh';
import { trpc } from '@/lib/trpc';

/**
 * An ended session (refresh refused: revoked, signed out elsewhere) lands back on sign-in, unless
 * a form holds unsaved edits: then it is signed into again in place (session-ended.ts).
 */
function backToSignIn(error: unknown) {
  if (!isUnauthorized(error) || typeof window === 'undefined') return;
  if (window.location.pathname.startsWith('/sign-in')) return;
  if (endSessionInPlace()) return;
  const next = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`/sign-in?next=${encodeURIComponent(next)}&expired=1`);
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: backToSignIn }),
        mutationCache: new MutationCache({ onError: backToSignIn }),
        defaultOptions: {
          queries: {
            staleTime: 15_000,
            refetchOnWindowFocus: false,
            // A 4xx will not change by asking again; a network blip or 503 might.
            retry: (count, error) => {
              const status = (error as { data?: { httpStatus?: number } }).data?.httpStatus ?? 0;
              return count < 2 && (status === 0 || status >= 500);
            },
          },
        },
      }),
  );
  const [client] = useState(() =>
    // No batching: each call is one request, as the API serves them (it refuses batches). A 401
    // is answered by one refresh for the whole browser, then one retry (session-refresh.ts).
    // A write given `context: { ifMatch }` (an edit form's tag of the record it opened) sends it
    // as If-Match, so a record changed meanwhile is refused (412) rather than overwritten.
    trpc.createClient({
      links: [
        httpLink({
          url: '/api/trpc',
          fetch: browserSessionFetch(),
          headers: ({ op }) => {
            const ifMatch = op.context.ifMatch;
            return typeof ifMatch === 'string' ? { 'if-match': ifMatch } : {};
          },
        }),
      ],
    }),
  );
  return (
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}
