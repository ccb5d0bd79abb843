'use client';

import { createContext, type ReactNode, useContext } from 'react';
import type { User } from '@/lib/trpc';

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
