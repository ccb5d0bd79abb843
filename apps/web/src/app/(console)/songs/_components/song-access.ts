'use client';

import { useOwnArtists } from '@/components/catalogue/artists';
import { useMe } from '@/components/shell/session';
import type { Song } from '@/lib/trpc';

/** Who may change a song, as the API decides it: admins, and artists of one of its artists. */
export function useSongAccess() {
  const me = useMe();
  const own = useOwnArtists();
  const ownIds = new Set(own.data?.data.map((a) => a.id) ?? []);
  return {
    ownArtists: own.data?.data ?? [],
    ownPending: me.role === 'artist' && own.isPending,
    canCreate: me.role === 'admin' || (me.role === 'artist' && ownIds.size > 0),
    canEdit: (song: Song) => me.role === 'admin' || song.artistIds.some((id) => ownIds.has(id)),
  };
}
