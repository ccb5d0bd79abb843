'use client';

import { useMe } from '@/components/shell/session';
import { IDS_PER_CALL, idChunks, namesFromAnswers } from '@/lib/names-by-id';
import { trpc } from '@/lib/trpc';

/**
 * Usernames for user ids (playlists and artists carry ids only): one `users.profiles` call by
 * `ids` for up to 100 accounts, so a page of rows costs one call for all of them, not one per
 * row. The signed-in account is not asked for (the rows say "You"); an account left out of the
 * answer (deleted since the rows were read) is named `unknown`. Call it once per page with every
 * id on it, and hand the names to the rows.
 */
export function useUsernames(ids: readonly string[], unknown: string): Map<string, string> {
  const me = useMe();
  const chunks = idChunks(ids.filter((id) => id !== me.id));
  const answers = trpc.useQueries((t) =>
    chunks.map((chunk) =>
      t.users.profiles({ ids: chunk.join(','), limit: IDS_PER_CALL }, { staleTime: 300_000 }),
    ),
  );
  return namesFromAnswers(chunks, answers, (profile) => profile.username, unknown);
}
