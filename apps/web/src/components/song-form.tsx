'use client';

import { createSongInput, patchSongInput } from '@music/api-router/schemas';
import { ArtistPicker } from '@/components/artists';
import { DialogForm, type RecordFormProps } from '@/components/dialog-form';
import { TextInput } from '@/components/ui';
import { orNull, useSave } from '@/lib/form';
import { formatDuration, parseDuration } from '@/lib/format';
import { type Song, trpc } from '@/lib/trpc';

/** Create or edit a song; validated with the procedures' own schemas, server errors beside fields. */
export function SongForm({
  song,
  defaultArtistIds = [],
  onSaved,
  onCancel,
}: RecordFormProps<Song> & { song: Song | null; defaultArtistIds?: string[] }) {
  const utils = trpc.useUtils();
  const saved = async (result: Song) => {
    await Promise.all([utils.songs.list.invalidate(), utils.artists.songs.invalidate()]);
    utils.songs.get.setData({ songId: result.id }, result);
    onSaved(result);
  };
  const { values, setValues, field, errorOf, setFields, mutation, save } = useSave(
    {
      title: song?.title ?? '',
      album: song?.album ?? '',
      genre: song?.genre ?? '',
      duration: song ? formatDuration(song.duration) : '',
      releaseYear: song?.releaseYear ? String(song.releaseYear) : '',
      artistIds: song?.artistIds ?? defaultArtistIds,
    },
    song && { songId: song.id },
    { schema: createSongInput, mutation: trpc.songs.create.useMutation({ onSuccess: saved }) },
    { schema: patchSongInput, mutation: trpc.songs.update.useMutation({ onSuccess: saved }) },
  );

  function submit() {
    const payload = {
      title: values.title,
      album: orNull(values.album),
      genre: orNull(values.genre),
      duration: parseDuration(values.duration),
      releaseYear: values.releaseYear.trim() === '' ? null : Number(values.releaseYear),
      artistIds: values.artistIds,
    };
    save(payload);
    // An unreadable length is NaN, which the schema refuses; say how to write one.
    if (Number.isNaN(payload.duration)) {
      setFields((fields) => ({ ...fields, duration: 'Use minutes:seconds (3:25) or seconds (205)' }));
    }
  }

  return (
    <DialogForm
      onSubmit={submit}
      mutation={mutation}
      submitLabel={song ? 'Save song' : 'Create song'}
      onCancel={onCancel}
    >
      <TextInput label="Title" {...field('title')} />
      <div className="grid-2">
        <TextInput label="Album" {...field('album')} />
        <TextInput label="Genre" {...field('genre')} />
      </div>
      <div className="grid-2">
        <TextInput
          label="Length"
          inputMode="numeric"
          placeholder="3:25"
          {...field('duration')}
          hint="minutes:seconds, or seconds"
        />
        <TextInput label="Release year" inputMode="numeric" {...field('releaseYear')} />
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
