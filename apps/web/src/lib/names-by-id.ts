/**
 * Names for ids that records carry (a song's artists, a playlist's owner), fetched through a
 * list's `ids` filter: one call for up to IDS_PER_CALL ids, so a page of records costs one call
 * for all the names on it, not one per row. The hooks (useArtistNames, useOwnerNames) make the
 * calls; this is what they share.
 */

/** As many ids as one call's `ids` filter takes (and the largest page, so all come back). */
export const IDS_PER_CALL = 100;

/** `ids` without repeats and sorted (the same calls for the same set), IDS_PER_CALL to a call. */
export function idChunks(ids: readonly string[]): string[][] {
  const unique = [...new Set(ids)].sort();
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += IDS_PER_CALL) chunks.push(unique.slice(i, i + IDS_PER_CALL));
  return chunks;
}

interface Answer<R> {
  data?: { data: R[] } | undefined;
  isError: boolean;
}

/**
 * Each id's name from its chunk's answer: '…' while the answer is on its way, `unknown` when the
 * answer left it out (the record is gone, or hidden from this caller) or the call failed.
 */
export function namesFromAnswers<R extends { id: string }>(
  chunks: readonly string[][],
  answers: readonly Answer<R>[],
  nameOf: (record: R) => string,
  unknown: string,
): Map<string, string> {
  const names = new Map<string, string>();
  answers.forEach((answer, i) => {
    const found = new Map(answer.data?.data.map((record) => [record.id, nameOf(record)]));
    for (const id of chunks[i] ?? []) {
      names.set(id, found.get(id) ?? (answer.isError || answer.data ? unknown : '…'));
    }
  });
  return names;
}
