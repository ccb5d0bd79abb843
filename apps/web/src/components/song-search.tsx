'use client';

import type { RouterOutputs } from '@music/api-router/types';
import { type ReactNode, useState } from 'react';
import { Empty, ErrorNotice, Loading, SearchBox, useDebounced } from '@/components/ui';
import { trpc } from '@/lib/trpc';

type SongMatch = RouterOutputs['songs']['list']['data'][number];

/**
 * A search of the catalogue's songs as the user types, each match a row with `action` beside
 * it (link it to an artist, add it to a playlist). `error` is the action's own failure.
 */
export function SongSearch({
  label,
  limit,
  error,
  children,
}: {
  label: string;
  limit: number;
  error: ReactNode;
  children: (song: SongMatch) => ReactNode;
}) {
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  const matches = trpc.songs.list.useQuery({ search: term, limit }, { enabled: term.length > 0 });
  return (
    <>
      <SearchBox label={label} value={search} onChange={setSearch} />
      {error}
      {term &&
        (matches.isPending ? (
          <Loading label="Searching…" />
        ) : matches.isError ? (
          <ErrorNotice error={matches.error} />
        ) : matches.data.data.length === 0 ? (
          <Empty>No song matches “{term}”.</Empty>
        ) : (
          <ul className="rows">
            {matches.data.data.map((song) => (
              <li key={song.id} className="row">
                {children(song)}
              </li>
            ))}
          </ul>
        ))}
    </>
  );
}
