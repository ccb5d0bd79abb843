'use client';

import { useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { type Role, trpc, type User } from '@/lib/trpc';

const SessionContext = createContext<User | null>(null);

export function SessionProvider({ user, children }: { user: User; children: ReactNode }) {
  return <SessionContext.Provider value={user}>{children}</SessionContext.Provider>;
}

/** The signed-in user; only inside the console's signed-in pages. */
export function useMe(): User {
  const user = useContext(SessionContext);
  if (!user) throw new Error('useMe() outside the signed-in console');
  return user;
}

/**
 * Reloads the signed-in user (auth.me) after a change to their own account, so the shell shows
 * their new name and role. `fresh`, the account as the API has just returned it, is shown at once;
 * auth.me is then asked again, as the one source of who is signed in.
 */
export function useRefreshMe(): (fresh?: User) => Promise<void> {
  const utils = trpc.useUtils();
  return async (fresh) => {
    if (fresh) utils.auth.me.setData(undefined, fresh);
    await utils.auth.me.invalidate();
  };
}

/**
 * Readies the session for a request the tRPC client does not send (a download link, an import's
 * upload), which cannot refresh the session itself: one cheap call (auth.me) through the client,
 * whose 401 refreshes the session once for the whole browser (src/lib/session-refresh.ts). It
 * answers null when the session holds, else the call's error: an ended session has sent the page
 * to sign-in already (the query cache does, as for any call). Kept apart from the shell's own
 * auth.me, so a failure here is this request's, not the whole console's.
 */
export function useFreshSession(): () => Promise<unknown> {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return () =>
    queryClient
      .fetchQuery({
        queryKey: ['session.fresh'],
        queryFn: () => utils.client.auth.me.query(),
        staleTime: 0,
        gcTime: 0,
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
}

/**
 * Follows the signed-in user's role through the session. When it changes (an admin demoted
 * themselves, or auth.me came back with a role another admin gave), the page of the old role is
 * left for the start page of the new one, and what was fetched with the old role's rights is
 * dropped. True while leaving: the shell shows a notice in place of the page meanwhile, so a page
 * the new role may not see is never drawn, nor asks the API and shows its refusal.
 */
export function useRoleChange(role: Role | undefined): boolean {
  const pathname = usePathname();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [seen, setSeen] = useState(role);
  const [leaving, setLeaving] = useState<string | null>(null);
  // Adjusted while rendering, not in an effect: the old page must not render once with the new role.
  if (role !== seen) {
    setSeen(role);
    if (seen !== undefined && role !== undefined && pathname !== '/') setLeaving(pathname);
  }
  useEffect(() => {
    if (leaving === null) return;
    if (pathname !== leaving) {
      setLeaving(null);
      return;
    }
    // The old page is gone by now (the shell drew the notice instead), so its queries have no
    // observer left; the shell's own auth.me keeps one and stays.
    queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
    router.replace('/');
  }, [leaving, pathname, queryClient, router]);
  return leaving !== null;
}
