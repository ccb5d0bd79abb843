'use client';

import { createSongInput, patchSongInput } from '@music/api-router/schemas';
import type { FormEvent } from 'react';
import { ArtistPicker } from '@/components/artists';
import { DialogForm } from '@/components/dialog-form';
import { TextInput } from '@/components/ui';
import { useFormValues, useSave } from '@/lib/form';
import { formatDuration, parseDuration } from '@/lib/format';
import { type Song, trpc } from '@/lib/trpc';

interface Values {
  title: string;
  album: string;
  genre: string;
  duration: string;
  releaseYear: string;
  artistIds: string[];
}

/** Create or edit a song; validated with the procedures' own schemas, server errors beside fields. */
export function SongForm({
  song,
  defaultArtistIds = [],
  onSaved,
  onCancel,
}: {
  song: Song | null;
  defaultArtistIds?: string[];
  onSaved: (song: Song) => void;
  onCancel?: () => void;
}) {
  const utils = trpc.useUtils();
  const { values, setValues, set } = useFormValues<Values>({
    title: song?.title ?? '',
    album: song?.album ?? '',
    genre: song?.genre ?? '',
    duration: song ? formatDuration(song.duration) : '',
    releaseYear: song?.releaseYear ? String(song.releaseYear) : '',
    artistIds: song?.artistIds ?? defaultArtistIds,
  });
  const saved = async (result: Song) => {
    await Promise.all([utils.songs.list.invalidate(), utils.artists.songs.invalidate()]);
    utils.songs.get.setData({ songId: result.id }, result);
    onSaved(result);
  };
  const { mutation, errorOf, setFields, save } = useSave(
    song !== null,
    { schema: createSongInput, mutation: trpc.songs.create.useMutation({ onSuccess: saved }) },
    { schema: patchSongInput, mutation: trpc.songs.update.useMutation({ onSuccess: saved }) },
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const payload = {
      title: values.title,
      album: values.album.trim() === '' ? null : values.album,
      genre: values.genre.trim() === '' ? null : values.genre,
      duration: parseDuration(values.duration),
      releaseYear: values.releaseYear.trim() === '' ? null : Number(values.releaseYear),
      artistIds: values.artistIds,
    };
    // An unreadable length is NaN, which the schema refuses; say how to write one.
    save(song ? { songId: song.id, ...payload } : payload);
    if (Number.isNaN(payload.duration)) {
      setFields((fields) => ({ ...fields, duration: 'Use minutes:seconds (3:25) or seconds (205)' }));
    }
  }

  return (
    <DialogForm
      onSubmit={submit}
      error={mutation.error}
      busy={mutation.isPending}
      submitLabel={song ? 'Save song' : 'Create song'}
      onCancel={onCancel}
    >
      <TextInput label="Title" value={values.title} onChange={set('title')} error={errorOf('title')} />
      <div className="grid-2">
        <TextInput label="Album" value={values.album} onChange={set('album')} error={errorOf('album')} />
        <TextInput label="Genre" value={values.genre} onChange={set('genre')} error={errorOf('genre')} />
      </div>
      <div className="grid-2">
        <TextInput
          label="Length"
          inputMode="numeric"
          placeholder="3:25"
          value={values.duration}
          onChange={set('duration')}
          error={errorOf('duration')}
          hint="minutes:seconds, or seconds"
        />
        <TextInput
          label="Release year"
          inputMode="numeric"
          value={values.releaseYear}
          onChange={set('releaseYear')}
          error={errorOf('releaseYear')}
        />
      </div>
      <ArtistPicker
        label="Artists"
        value={values.artistIds}
        onChange={(artistIds) => setValues((v) => ({ ...v, artistIds }))}
        error={errorOf('artistIds')}
      />
    </DialogForm>
  );
}
