'use client';

import { useUsernames } from '@/components/catalogue/usernames';
import { useMe } from '@/components/shell/session';
import type { Playlist } from '@/lib/trpc';

/** The name shown for an owner the answer left out (deleted since the playlist was read). */
const UNKNOWN_OWNER = 'Unknown listener';

/** Owners' usernames for user ids, for a page of playlists at once (see useUsernames). */
export function useOwnerNames(ids: readonly string[]): Map<string, string> {
  return useUsernames(ids, UNKNOWN_OWNER);
}

/** A playlist's owner, from the names its page fetched for all its rows at once: "You" for your own. */
export function OwnerName({ userId, names }: { userId: string; names: Map<string, string> }) {
  const me = useMe();
  if (userId === me.id) return <>You</>;
  const name = names.get(userId) ?? '…';
  return name === UNKNOWN_OWNER ? <span className="muted">{name}</span> : name;
}

/** A single playlist's owner, fetched here: for the playlist's own page. */
export function Owner({ playlist }: { playlist: Playlist }) {
  return <OwnerName userId={playlist.userId} names={useOwnerNames([playlist.userId])} />;
}
