'use client';

import { createPlaylistInput, replacePlaylistInput } from '@music/api-router/schemas';
import type { FormEvent } from 'react';
import { DialogForm } from '@/components/dialog-form';
import { Checkbox, TextArea, TextInput } from '@/components/ui';
import { useFormValues, useSave } from '@/lib/form';
import { type Playlist, trpc } from '@/lib/trpc';

/** Name, description and visibility of a playlist (its songs are managed on its page). */
export function PlaylistForm({
  playlist,
  onSaved,
  onCancel,
}: {
  playlist: Playlist | null;
  onSaved: (playlist: Playlist) => void;
  onCancel?: () => void;
}) {
  const utils = trpc.useUtils();
  const { values, setValues, set } = useFormValues({
    name: playlist?.name ?? '',
    description: playlist?.description ?? '',
    isPublic: playlist?.isPublic ?? false,
  });
  const saved = async (result: Playlist) => {
    utils.playlists.get.setData({ playlistId: result.id }, result);
    await utils.playlists.list.invalidate();
    onSaved(result);
  };
  const { mutation, errorOf, save } = useSave(
    playlist !== null,
    { schema: createPlaylistInput, mutation: trpc.playlists.create.useMutation({ onSuccess: saved }) },
    { schema: replacePlaylistInput, mutation: trpc.playlists.replace.useMutation({ onSuccess: saved }) },
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const payload = {
      name: values.name,
      description: values.description.trim() === '' ? null : values.description,
      isPublic: values.isPublic,
    };
    // songIds left out: the songs stay as they are.
    save(playlist ? { playlistId: playlist.id, ...payload } : payload);
  }

  return (
    <DialogForm
      onSubmit={submit}
      error={mutation.error}
      busy={mutation.isPending}
      submitLabel={playlist ? 'Save' : 'Create playlist'}
      onCancel={onCancel}
    >
      <TextInput label="Name" value={values.name} onChange={set('name')} error={errorOf('name')} />
      <TextArea
        label="Description"
        value={values.description}
        onChange={set('description')}
        error={errorOf('description')}
      />
      <Checkbox
        label="Public: every signed-in user can see it"
        checked={values.isPublic}
        onChange={(e) => setValues((v) => ({ ...v, isPublic: e.target.checked }))}
      />
    </DialogForm>
  );
}
