'use client';

import { createPlaylistInput, replacePlaylistInput } from '@music/api-router/schemas';
import { Checkbox, TextArea, TextInput } from '@/components/ui';
import { type ConflictField, ConflictNotice, useEditConflict } from '@/components/ui/conflict-notice';
import { DialogForm, type RecordFormProps } from '@/components/ui/dialog-form';
import { orNull, useSave } from '@/lib/form';
import { type Playlist, trpc } from '@/lib/trpc';

/**
 * What the conflict notice compares: this form's fields, and the songs. The songs are in the
 * playlist's tag, so a song added or moved meanwhile (also from this page, a moment before the
 * form opened) is a 412 here; the form does not send them, so it then saves again by itself.
 */
const PLAYLIST_FIELDS: readonly ConflictField<Playlist>[] = [
  { label: 'Name', value: (p) => p.name },
  { label: 'Description', value: (p) => p.description },
  {
    label: 'Visibility',
    value: (p) => p.isPublic,
    show: (isPublic: boolean) => (isPublic ? 'Public' : 'Private'),
  },
  {
    label: 'Songs',
    value: (p) => p.songIds,
    show: (ids: string[]) => `${ids.length} song${ids.length === 1 ? '' : 's'}`,
    kept: true,
  },
];

function valuesOf(playlist: Playlist | null) {
  return {
    name: playlist?.name ?? '',
    description: playlist?.description ?? '',
    isPublic: playlist?.isPublic ?? false,
  };
}

/**
 * Name, description and visibility of a playlist (its songs are managed on its page). An edit is
 * sent with If-Match: when the playlist was saved meanwhile, the form says what changed and lets
 * the user take that version or save over it.
 */
export function PlaylistForm({
  playlist,
  onSaved,
  onCancel,
}: RecordFormProps<Playlist> & { playlist: Playlist | null }) {
  const utils = trpc.useUtils();
  const lock = useEditConflict(
    playlist,
    () => utils.client.playlists.get.query({ playlistId: playlist?.id ?? '' }),
    PLAYLIST_FIELDS,
  );
  const saved = async (result: Playlist) => {
    lock.saved(result);
    utils.playlists.get.setData({ playlistId: result.id }, result);
    await utils.playlists.list.invalidate();
    onSaved(result);
  };
  const replace = trpc.playlists.replace.useMutation({
    onSuccess: saved,
    onError: lock.onError,
    trpc: { context: lock.context },
  });
  const { values, setValues, field, mutation, save, startFrom, mergeOnto } = useSave(
    valuesOf(playlist),
    playlist && { playlistId: playlist.id },
    { schema: createPlaylistInput, mutation: trpc.playlists.create.useMutation({ onSuccess: saved }) },
    { schema: replacePlaylistInput, mutation: replace },
    {
      // songIds left out: the songs stay as they are.
      payload: (v) => ({ name: v.name, description: orNull(v.description), isPublic: v.isPublic }),
      nouns: { name: 'a name' },
    },
  );
  lock.retryWith(save);

  return (
    <DialogForm
      onSubmit={save}
      mutation={lock.hidesError ? { ...mutation, error: null } : mutation}
      submitLabel={playlist ? 'Save' : 'Create playlist'}
      onCancel={onCancel}
      requiredNote
    >
      {lock.conflict && (
        <ConflictNotice
          noun="playlist"
          changes={lock.conflict.changes}
          busy={mutation.isPending}
          onReload={() => {
            const current = lock.reload();
            if (!current) return;
            replace.reset();
            startFrom(valuesOf(current));
            utils.playlists.get.setData({ playlistId: current.id }, current);
            void utils.playlists.list.invalidate();
          }}
          onOverwrite={() => {
            // Only what the user changed goes over their version: the rest stays as they saved it.
            const current = lock.overwrite();
            if (current) save(mergeOnto(valuesOf(current)));
          }}
        />
      )}
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
