'use client';

import { useId, useState } from 'react';
import { useMe } from '@/components/session';
import { Button, useDebounced } from '@/components/ui';
import { trpc } from '@/lib/trpc';

/** Names for artist ids (songs carry ids only); each artist is fetched once and cached. */
export function useArtistNames(ids: readonly string[]): Map<string, string> {
  const unique = [...new Set(ids)];
  const results = trpc.useQueries((t) =>
    unique.map((artistId) => t.artists.get({ artistId }, { staleTime: 300_000 })),
  );
  const names = new Map<string, string>();
  results.forEach((result, i) => {
    names.set(unique[i]!, result.data?.name ?? (result.isError ? 'Unknown artist' : '…'));
  });
  return names;
}

/** The artists the signed-in account manages (role `artist`); empty for everyone else. */
export function useOwnArtists() {
  const me = useMe();
  return trpc.artists.list.useQuery(
    { userId: me.id, limit: 100 },
    { enabled: me.role === 'artist', staleTime: 60_000 },
  );
}

export function ArtistNames({ ids }: { ids: readonly string[] }) {
  const names = useArtistNames(ids);
  if (ids.length === 0) return <span className="muted">—</span>;
  return <>{ids.map((id) => names.get(id)).join(', ')}</>;
}

/**
 * Pick artists by searching their names: chosen ones are listed (in order) with a remove
 * button each; matches are buttons. Keyboard: type, Tab to a match, Enter.
 */
export function ArtistPicker({
  label,
  value,
  onChange,
  single = false,
  error,
  hint,
}: {
  label: string;
  value: string[];
  onChange: (ids: string[]) => void;
  single?: boolean;
  error?: string | undefined;
  hint?: string;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim(), 200);
  const names = useArtistNames(value);
  const matches = trpc.artists.list.useQuery({ search: term, limit: 8 }, { enabled: term.length > 0 });
  const choose = (artistId: string) => {
    onChange(single ? [artistId] : [...value, artistId]);
    setSearch('');
  };
  return (
    <fieldset
      className={`picker ${error ? 'field-invalid' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>{label}</legend>
      {value.length > 0 && (
        <ul className="chips" aria-label={`Chosen: ${label}`}>
          {value.map((artistId) => (
            <li key={artistId} className="chip">
              {names.get(artistId)}
              <button
                type="button"
                aria-label={`Remove ${names.get(artistId)}`}
                onClick={() => onChange(value.filter((v) => v !== artistId))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={id} className="sr-only">
        Search artists for {label}
      </label>
      <input
        id={id}
        type="search"
        placeholder="Type an artist’s name…"
        value={search}
        maxLength={200}
        onChange={(e) => setSearch(e.target.value)}
        onKeyDown={(e) => {
          const first = matches.data?.data.find((a) => !value.includes(a.id));
          if (e.key === 'Enter') {
            e.preventDefault();
            if (first) choose(first.id);
          }
        }}
      />
      {term && (
        <ul className="matches" aria-live="polite">
          {matches.isPending ? (
            <li className="muted">Searching…</li>
          ) : matches.data?.data.length === 0 ? (
            <li className="muted">No artist matches “{term}”.</li>
          ) : (
            matches.data?.data.map((artist) => (
              <li key={artist.id}>
                <Button
                  variant="ghost"
                  disabled={value.includes(artist.id)}
                  onClick={() => choose(artist.id)}
                >
                  {artist.name}
                  {value.includes(artist.id) ? ' (chosen)' : ''}
                </Button>
              </li>
            ))
          )}
        </ul>
      )}
      {hint && <p className="field-hint">{hint}</p>}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
