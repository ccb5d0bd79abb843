'use client';

import { createSongInput, patchSongInput } from '@music/api-router/schemas';
import { useId } from 'react';
import { GenreOptions, useGenreSuggestions } from '@/app/(console)/songs/_components/genre-suggestions';
import { useSongAccess } from '@/app/(console)/songs/_components/song-access';
import { ArtistPicker } from '@/components/catalogue/artists';
import { useMe } from '@/components/shell/session';
import { TextInput } from '@/components/ui';
import { type ConflictField, ConflictNotice, useEditConflict } from '@/components/ui/conflict-notice';
import { DialogForm, type RecordFormProps } from '@/components/ui/dialog-form';
import { orNull, useSave } from '@/lib/form';
import { formatDuration, readDuration } from '@/lib/format';
import { type Song, trpc } from '@/lib/trpc';

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** What the conflict notice compares: the fields of this form, in its order. */
const SONG_FIELDS: readonly ConflictField<Song>[] = [
  { label: 'Title', value: (s) => s.title },
  { label: 'Album', value: (s) => s.album },
  { label: 'Genre', value: (s) => s.genre },
  { label: 'Length', value: (s) => s.duration, show: (seconds: number) => formatDuration(seconds) },
  { label: 'Release year', value: (s) => s.releaseYear },
  { label: 'ISRC', value: (s) => s.isrc },
  { label: 'External id', value: (s) => s.externalId },
  { label: 'Artists', value: (s) => s.artistIds, show: (ids: string[]) => plural(ids.length, 'artist') },
];

/** Why an artist account cannot take all of its own artists off a song, naming them. */
function ownArtistRule(names: readonly string[]): string {
  const which = names.length === 1 ? names[0] : `one of ${names.join(', ')}`;
  return `Keep ${which} among the artists: your account may only save songs of its own artists`;
}

function valuesOf(song: Song | null, defaultArtistIds: string[]) {
  return {
    title: song?.title ?? '',
    album: song?.album ?? '',
    genre: song?.genre ?? '',
    duration: song ? formatDuration(song.duration) : '',
    releaseYear: song?.releaseYear ? String(song.releaseYear) : '',
    isrc: song?.isrc ?? '',
    externalId: song?.externalId ?? '',
    artistIds: song?.artistIds ?? defaultArtistIds,
    // Typed in the artist picker and not chosen: refused, so it is never dropped without a word.
    artistSearch: '',
  };
}

/**
 * Create or edit a song; validated with the procedures' own schemas, server errors beside fields.
 * An edit is sent with If-Match: when someone saved the song meanwhile, the form says what they
 * changed and lets the user take their version or save over it.
 */
export function SongForm({
  song,
  defaultArtistIds = [],
  onSaved,
  onCancel,
}: RecordFormProps<Song> & { song: Song | null; defaultArtistIds?: string[] }) {
  const utils = trpc.useUtils();
  const me = useMe();
  const { ownArtists } = useSongAccess();
  const genreList = useId();
  const lock = useEditConflict(
    song,
    () => utils.client.songs.get.query({ songId: song?.id ?? '' }),
    SONG_FIELDS,
  );
  const saved = async (result: Song) => {
    lock.saved(result);
    await Promise.all([utils.songs.list.invalidate(), utils.artists.songs.invalidate()]);
    utils.songs.get.setData({ songId: result.id }, result);
    onSaved(result);
  };
  const update = trpc.songs.update.useMutation({
    onSuccess: saved,
    onError: lock.onError,
    trpc: { context: lock.context },
  });
  const { values, setValues, setFields, field, errorOf, mutation, save, startFrom, mergeOnto } = useSave(
    valuesOf(song, defaultArtistIds),
    song && { songId: song.id },
    { schema: createSongInput, mutation: trpc.songs.create.useMutation({ onSuccess: saved }) },
    { schema: patchSongInput, mutation: update },
    {
      payload: (v) => {
        const length = readDuration(v.duration);
        return {
          title: v.title,
          album: orNull(v.album),
          // In the catalogue's spelling when it names a genre in use ("folk" as "Folk").
          genre: orNull(genres.spelling(v.genre)),
          // An unreadable length is sent to the schema as NaN, which it refuses, so nothing is saved.
          duration: length.ok ? length.seconds : Number.NaN,
          releaseYear: v.releaseYear.trim() === '' ? null : Number(v.releaseYear),
          isrc: orNull(v.isrc),
          externalId: orNull(v.externalId),
          artistIds: v.artistIds,
        };
      },
      // The schema would only say "expected number": say what is wrong with the length instead.
      // A name left in the artist picker's search is no artist: say so rather than save without it.
      refine: (v): Record<string, string> => {
        const length = readDuration(v.duration);
        const unchosen = v.artistSearch.trim();
        // An artist account may only save a song that stays one of its own (the API refuses it).
        const notOwn =
          me.role === 'artist' &&
          ownArtists.length > 0 &&
          !ownArtists.some((artist) => v.artistIds.includes(artist.id));
        return {
          ...(length.ok ? {} : { duration: length.error }),
          ...(notOwn ? { artistIds: ownArtistRule(ownArtists.map((artist) => artist.name)) } : {}),
          ...(unchosen
            ? { artistIds: `“${unchosen}” is not chosen: choose an artist from the list, or clear it` }
            : {}),
        };
      },
      nouns: { title: 'a title' },
    },
  );
  const genres = useGenreSuggestions(values.genre);
  lock.retryWith(save);

  return (
    <DialogForm
      onSubmit={save}
      mutation={lock.hidesError ? { ...mutation, error: null } : mutation}
      submitLabel={song ? 'Save song' : 'Create song'}
      onCancel={onCancel}
      requiredNote
    >
      {lock.conflict && (
        <ConflictNotice
          noun="song"
          changes={lock.conflict.changes}
          busy={mutation.isPending}
          onReload={() => {
            const current = lock.reload();
            if (!current) return;
            update.reset();
            startFrom(valuesOf(current, defaultArtistIds));
            utils.songs.get.setData({ songId: current.id }, current);
            void utils.songs.list.invalidate();
          }}
          onOverwrite={() => {
            // Only what the user changed goes over their version: the rest stays as they saved it.
            const current = lock.overwrite();
            if (current) save(mergeOnto(valuesOf(current, defaultArtistIds)));
          }}
        />
      )}
      <TextInput label="Title" {...field('title')} />
      <div className="grid-2">
        <TextInput label="Album" {...field('album')} />
        <TextInput
          label="Genre"
          {...field('genre')}
          list={genreList}
          autoComplete="off"
          onFocus={genres.use}
          hint="Suggests the genres in use as you type"
        />
        <GenreOptions id={genreList} genres={genres.suggestions} />
      </div>
      <div className="grid-2">
        {/* No numeric keyboard: on phones it has no colon. */}
        <TextInput
          label="Length"
          placeholder="3:25"
          {...field('duration')}
          hint="minutes:seconds (3:25), hours:minutes:seconds, or seconds"
        />
        <TextInput label="Release year" inputMode="numeric" {...field('releaseYear')} />
      </div>
      <TextInput
        label="ISRC"
        placeholder="USRC17607839"
        autoCapitalize="characters"
        spellCheck={false}
        {...field('isrc')}
        hint="The recording’s code: 12 letters and digits (hyphens allowed)"
      />
      <TextInput
        label="External id"
        spellCheck={false}
        {...field('externalId')}
        hint="Its id in the system it came from (a catalogue number); imports update by it"
      />
      <ArtistPicker
        label="Artists"
        value={values.artistIds}
        onChange={(artistIds) => setValues((v) => ({ ...v, artistIds }))}
        onSearchChange={(artistSearch) => {
          setValues((v) => ({ ...v, artistSearch }));
          // What it said of the search no longer holds (a submit says it again if need be).
          setFields(({ artistIds: _, ...others }) => others);
        }}
        error={errorOf('artistIds')}
      />
    </DialogForm>
  );
}
