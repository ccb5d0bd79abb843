'use client';

import { useMe } from '@/components/shell/session';
import { IDS_PER_CALL, idChunks, namesFromAnswers } from '@/lib/names-by-id';
import { type Playlist, trpc } from '@/lib/trpc';

/** The name shown for an owner the answer left out (deleted since the playlist was read). */
const UNKNOWN_OWNER = 'Unknown listener';

/**
 * Owners' usernames for user ids (playlists carry ids only): one `users.profiles` call by `ids`
 * for up to 100 owners, so a page of playlists costs one call for all its owners, not one per
 * row. The signed-in account is not asked for (its playlists say "You"). Call it once per page
 * with every owner on it, and hand the names to the rows (OwnerName).
 */
export function useOwnerNames(ids: readonly string[]): Map<string, string> {
  const me = useMe();
  const chunks = idChunks(ids.filter((id) => id !== me.id));
  const answers = trpc.useQueries((t) =>
    chunks.map((chunk) =>
      t.users.profiles({ ids: chunk.join(','), limit: IDS_PER_CALL }, { staleTime: 300_000 }),
    ),
  );
  // An owner left out of the answer is gone (deleted since the playlist was read).
  return namesFromAnswers(chunks, answers, (profile) => profile.username, UNKNOWN_OWNER);
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
