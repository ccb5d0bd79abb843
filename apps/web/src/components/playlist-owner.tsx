'use client';

import { useMe } from '@/components/session';
import { type Playlist, trpc } from '@/lib/trpc';

/** Owners' names are for admins (users are private to everyone else). */
export function Owner({ playlist }: { playlist: Playlist }) {
  const me = useMe();
  const owner = trpc.users.get.useQuery(
    { userId: playlist.userId },
    { enabled: me.role === 'admin' && playlist.userId !== me.id, staleTime: 300_000 },
  );
  if (playlist.userId === me.id) return <>You</>;
  if (me.role !== 'admin') return <span className="muted">Another listener</span>;
  return <>{owner.data?.username ?? '…'}</>;
}
