'use client';

import { Fragment, type ReactNode, useState } from 'react';
import { ArtistNameList, useArtistNames } from '@/components/catalogue/artists';
import { Button, Empty, ErrorNotice, Loading, SearchBox, useDebounced } from '@/components/ui';
import { SearchingStatus } from '@/components/ui/paged-table';
import { type Song, trpc } from '@/lib/trpc';

/**
 * A search of the catalogue's songs as the user types, each match a row drawn by `children`
 * (the song with its action: link it to an artist, add it to a playlist). `error` is the
 * action's own failure, shown above the matches. While a changed search is on its way, the last
 * matches stay, marked busy, under "Searching…".
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
  /** A match's row; `artistNames` holds the names of every match's artists, fetched at once. */
  children: (song: Song, artistNames: Map<string, string>) => ReactNode;
}) {
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  const matches = trpc.songs.list.useQuery(
    { search: term, limit },
    { enabled: term.length > 0, placeholderData: (previous) => previous },
  );
  const searching = matches.isPlaceholderData;
  const artistNames = useArtistNames(matches.data?.data.flatMap((song) => song.artistIds) ?? []);
  return (
    <>
      <SearchBox label={label} value={search} onChange={setSearch} />
      <ErrorNotice error={error} />
      {term &&
        (matches.isPending ? (
          <Loading label="Searching…" />
        ) : matches.isError ? (
          <ErrorNotice error={matches.error} />
        ) : (
          <>
            <SearchingStatus busy={searching} />
            {matches.data.data.length === 0 ? (
              !searching && <Empty>No song matches “{term}”.</Empty>
            ) : (
              <ul className="rows" aria-busy={searching || undefined}>
                {matches.data.data.map((song) => (
                  <li key={song.id} className="row">
                    {children(song, artistNames)}
                  </li>
                ))}
              </ul>
            )}
          </>
        ))}
    </>
  );
}

/**
 * A match's title, then what tells it from another of the same title: its artists, album and
 * year, as far as it has them.
 */
export function SongLine({ song, artistNames }: { song: Song; artistNames: Map<string, string> }) {
  const details: Array<[string, ReactNode]> = [];
  if (song.artistIds.length > 0) {
    details.push(['artists', <ArtistNameList key="artists" ids={song.artistIds} names={artistNames} />]);
  }
  if (song.album) details.push(['album', <bdi key="album">{song.album}</bdi>]);
  if (song.releaseYear !== null) details.push(['year', String(song.releaseYear)]);
  return (
    <span className="grow">
      <bdi>{song.title}</bdi>
      {details.length > 0 && (
        <span className="muted">
          {' '}
          {details.map(([key, detail], i) => (
            <Fragment key={key}>
              {i > 0 && ' · '}
              {detail}
            </Fragment>
          ))}
        </span>
      )}
    </span>
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
