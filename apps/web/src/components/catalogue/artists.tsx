'use client';

import Link from 'next/link';
import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { useMe } from '@/components/shell/session';
import { useDebounced } from '@/components/ui';
import { Combobox, type ComboboxOption } from '@/components/ui/combobox';
import { homeInputs } from '@/lib/home';
import { IDS_PER_CALL, idChunks, namesFromAnswers } from '@/lib/names-by-id';
import { trpc } from '@/lib/trpc';

/** The name shown for an artist that is gone (deleted since the song was read). */
const UNKNOWN_ARTIST = 'Unknown artist';

/**
 * Names for artist ids (songs carry ids only): one `artists.list` call by `ids` for up to 100
 * artists, so a page of songs costs one call for all its artists, not one per artist. Call it
 * once per page with every id on it, and hand the names to the rows (ArtistNameList).
 */
export function useArtistNames(ids: readonly string[]): Map<string, string> {
  const chunks = idChunks(ids);
  const answers = trpc.useQueries((t) =>
    chunks.map((chunk) =>
      t.artists.list({ ids: chunk.join(','), limit: IDS_PER_CALL }, { staleTime: 300_000 }),
    ),
  );
  // An artist left out of the answer is gone (deleted since the song was read).
  return namesFromAnswers(chunks, answers, (artist) => artist.name, UNKNOWN_ARTIST);
}

/** The artists the signed-in account manages (role `artist`); empty for everyone else. */
export function useOwnArtists() {
  const me = useMe();
  return trpc.artists.list.useQuery(homeInputs.ownArtists(me.id), {
    enabled: me.role === 'artist',
    staleTime: 60_000,
  });
}

/** A record's artists by name, fetched here: for a single record (a song's page). */
export function ArtistNames({ ids }: { ids: readonly string[] }) {
  return <ArtistNameList ids={ids} names={useArtistNames(ids)} />;
}

/** A row's artists by name, each linking to its page, from the names its page fetched for all its rows at once. */
export function ArtistNameList({ ids, names }: { ids: readonly string[]; names: Map<string, string> }) {
  if (ids.length === 0) return <span className="muted">—</span>;
  return (
    <>
      {ids.map((id, i) => {
        const name = names.get(id);
        // A name on its way ('…', undefined) or an artist gone since ('Unknown artist') has no page.
        const known = name !== undefined && name !== '…' && name !== UNKNOWN_ARTIST;
        return (
          <Fragment key={id}>
            {i > 0 && ', '}
            {known ? <Link href={`/artists/${id}`}>{name}</Link> : (name ?? '…')}
          </Fragment>
        );
      })}
    </>
  );
}

/**
 * Pick artists by searching their names: chosen ones are listed (in order) with a remove button
 * each; matches are suggested in a combobox (Down/Up, Enter; see Combobox), where the ones
 * already chosen are listed but cannot be chosen again. A `single` picker (a filter) shows its
 * one artist in place of the search, in a box of the search's size, so a row of filters stays
 * in line; removing it brings the search back, focused.
 */
export function ArtistPicker({
  label,
  value,
  onChange,
  single = false,
  error,
  hint,
  onSearchChange,
}: {
  label: string;
  value: string[];
  onChange: (ids: string[]) => void;
  single?: boolean;
  error?: string | undefined;
  hint?: string;
  /** What is typed in the search, as it changes (empty once an artist is chosen from it). */
  onSearchChange?: (text: string) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [search, setSearchState] = useState('');
  const setSearch = (text: string) => {
    setSearchState(text);
    onSearchChange?.(text);
  };
  const term = useDebounced(search.trim(), 200);
  const names = useArtistNames(value);
  const matches = trpc.artists.list.useQuery({ search: term, limit: 8 }, { enabled: term.length > 0 });
  // Only the answer for what is typed now: while the debounce runs, the last answer would be stale.
  const settled = term !== '' && term === search.trim();
  const current = settled ? matches.data?.data : undefined;
  const options: ComboboxOption[] = (current ?? []).map((artist) => {
    const chosen = value.includes(artist.id);
    return { id: artist.id, label: artist.name, disabled: chosen, ...(chosen ? { note: '(chosen)' } : {}) };
  });
  const status =
    settled && matches.isError
      ? 'The search for artists failed. Type again to retry.'
      : !current
        ? 'Searching…'
        : options.length === 0
          ? `No artist matches “${term}”.`
          : `${options.length} ${options.length === 1 ? 'artist' : 'artists'} found.`;
  const choose = (artistId: string) => {
    onChange(single ? [artistId] : [...value, artistId]);
    setSearch('');
  };
  // Its button is gone with it: the focus goes back to the search, not to <body> (once the
  // search is shown again, for a single picker).
  const [refocus, setRefocus] = useState(false);
  useEffect(() => {
    if (!refocus) return;
    input.current?.focus();
    setRefocus(false);
  }, [refocus]);
  const remove = (artistId: string) => {
    onChange(value.filter((v) => v !== artistId));
    setRefocus(true);
  };
  const inField = single && value.length > 0;
  return (
    <fieldset
      className={`picker ${error ? 'field-invalid' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>{label}</legend>
      {value.length > 0 && (
        <ul className={inField ? 'chips chips-in-field' : 'chips'} aria-label={`Chosen: ${label}`}>
          {value.map((artistId) => (
            <li key={artistId} className="chip">
              <bdi>{names.get(artistId)}</bdi>
              <button
                type="button"
                aria-label={`Remove ${names.get(artistId)}`}
                onClick={() => remove(artistId)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {!inField && (
        <Combobox
          label={`Search artists for ${label}`}
          listLabel={`Matching artists: ${label}`}
          text={search}
          onTextChange={setSearch}
          options={options}
          status={status}
          onChoose={choose}
          placeholder="Type an artist’s name…"
          maxLength={200}
          inputRef={input}
          invalid={!!error}
          describedBy={error ? `${id}-error` : undefined}
        />
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
