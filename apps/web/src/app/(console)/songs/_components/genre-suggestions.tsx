'use client';

import { useState } from 'react';
import { useDebounced } from '@/components/ui';
import { trpc } from '@/lib/trpc';

/** How many genres are suggested at once. */
const SUGGESTIONS = 20;

/**
 * The genres in use (GET /genres) that match what is typed, for a genre text box: asked for once
 * the box is used (`use()`, on focus), so a form costs no call for them until then. `spelling`
 * gives a typed genre in the catalogue's own spelling when it names one letter case aside
 * ("folk" is saved as "Folk", the genre the list and the filter count it under).
 */
export function useGenreSuggestions(text: string) {
  const [used, setUsed] = useState(false);
  const term = useDebounced(text.trim(), 200);
  const genres = trpc.genres.list.useQuery(
    { limit: SUGGESTIONS, ...(term ? { search: term } : {}) },
    { enabled: used, staleTime: 60_000, placeholderData: (previous) => previous },
  );
  const suggestions = genres.data?.data ?? [];
  /** The suggested genre `typed` names, letter case aside. */
  const named = (typed: string) =>
    suggestions.find((genre) => genre.name.toLowerCase() === typed.trim().toLowerCase());
  return {
    suggestions,
    use: () => setUsed(true),
    named,
    spelling: (typed: string) => named(typed)?.name ?? typed,
  };
}

/** The suggestions as a <datalist> (the browser's own accessible combobox), each with its songs. */
export function GenreOptions({
  id,
  genres,
}: {
  id: string;
  genres: readonly { name: string; songCount: number }[];
}) {
  return (
    <datalist id={id}>
      {genres.map((genre) => (
        <option
          key={genre.name}
          value={genre.name}
          label={`${genre.name} (${genre.songCount} ${genre.songCount === 1 ? 'song' : 'songs'})`}
        />
      ))}
    </datalist>
  );
}
