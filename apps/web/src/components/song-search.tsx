'use client';

import { type ReactNode, useState } from 'react';
import { Button, Empty, ErrorNotice, Loading, SearchBox, useDebounced } from '@/components/ui';
import { type Song, trpc } from '@/lib/trpc';

/**
 * A search of the catalogue's songs as the user types, each match a row drawn by `children`
 * (the song with its action: link it to an artist, add it to a playlist). `error` is the
 * action's own failure, shown above the matches.
 */
export function SongSearch({
  label,
  limit,
  error,
  children,
}: {
  label: string;
  limit: number;
  error: unknown;
  children: (song: Song) => ReactNode;
}) {
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  const matches = trpc.songs.list.useQuery({ search: term, limit }, { enabled: term.length > 0 });
  return (
    <>
      <SearchBox label={label} value={search} onChange={setSearch} />
      <ErrorNotice error={error} />
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

/**
 * A song row's action button (`verb`, labelled "`verb` title"), busy while `mutation` runs for
 * this song. Once `done.when` holds it is disabled and reads `done.label`, its label then
 * "title `done.status`".
 */
export function SongAction({
  song,
  verb,
  mutation,
  onClick,
  done,
}: {
  song: { id: string; title: string };
  verb: string;
  mutation: { isPending: boolean; variables: { songId: string } | undefined };
  onClick: () => void;
  done?: { when: boolean; label: string; status: string };
}) {
  const isDone = done?.when === true;
  return (
    <Button
      variant="ghost"
      disabled={isDone}
      busy={mutation.isPending && mutation.variables?.songId === song.id}
      onClick={onClick}
      aria-label={isDone ? `${song.title} ${done.status}` : `${verb} ${song.title}`}
    >
      {isDone ? done.label : verb}
    </Button>
  );
}
