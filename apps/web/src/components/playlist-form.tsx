'use client';

import { createPlaylistInput, replacePlaylistInput } from '@music/api-router/schemas';
import { DialogForm, type RecordFormProps } from '@/components/dialog-form';
import { Checkbox, TextArea, TextInput } from '@/components/ui';
import { orNull, useSave } from '@/lib/form';
import { type Playlist, trpc } from '@/lib/trpc';

/** Name, description and visibility of a playlist (its songs are managed on its page). */
export function PlaylistForm({
  playlist,
  onSaved,
  onCancel,
}: RecordFormProps<Playlist> & { playlist: Playlist | null }) {
  const utils = trpc.useUtils();
  const saved = async (result: Playlist) => {
    utils.playlists.get.setData({ playlistId: result.id }, result);
    await utils.playlists.list.invalidate();
    onSaved(result);
  };
  const { values, setValues, field, mutation, save } = useSave(
    {
      name: playlist?.name ?? '',
      description: playlist?.description ?? '',
      isPublic: playlist?.isPublic ?? false,
    },
    playlist && { playlistId: playlist.id },
    { schema: createPlaylistInput, mutation: trpc.playlists.create.useMutation({ onSuccess: saved }) },
    { schema: replacePlaylistInput, mutation: trpc.playlists.replace.useMutation({ onSuccess: saved }) },
  );

  return (
    <DialogForm
      // songIds left out: the songs stay as they are.
      onSubmit={() =>
        save({ name: values.name, description: orNull(values.description), isPublic: values.isPublic })
      }
      mutation={mutation}
      submitLabel={playlist ? 'Save' : 'Create playlist'}
      onCancel={onCancel}
    >
      <TextInput label="Name" {...field('name')} />
      <TextArea label="Description" {...field('description')} />
      <Checkbox
        label="Public: every signed-in user can see it"
        checked={values.isPublic}
        onChange={(e) => setValues((v) => ({ ...v, isPublic: e.target.checked }))}
      />
    </DialogForm>
  );
}
