'use client';

import { createArtistInput, replaceArtistInput } from '@music/api-router/schemas';
import type { FormEvent } from 'react';
import { DialogForm } from '@/components/dialog-form';
import { useMe } from '@/components/session';
import { Select, TextArea, TextInput } from '@/components/ui';
import { useFormValues, useSave } from '@/lib/form';
import { type Artist, trpc } from '@/lib/trpc';

/** Create or replace an artist. Only admins see (and may set) the linked account. */
export function ArtistForm({
  artist,
  onSaved,
  onCancel,
}: {
  artist: Artist | null;
  onSaved: (artist: Artist) => void;
  onCancel?: () => void;
}) {
  const me = useMe();
  const isAdmin = me.role === 'admin';
  const utils = trpc.useUtils();
  const accounts = trpc.users.list.useQuery({ role: 'artist', limit: 100 }, { enabled: isAdmin });
  const { values, set } = useFormValues({
    name: artist?.name ?? '',
    bio: artist?.bio ?? '',
    userId: artist?.userId ?? '',
  });
  const saved = async (result: Artist) => {
    utils.artists.get.setData({ artistId: result.id }, result);
    await utils.artists.list.invalidate();
    onSaved(result);
  };
  const { mutation, errorOf, save } = useSave(
    artist !== null,
    { schema: createArtistInput, mutation: trpc.artists.create.useMutation({ onSuccess: saved }) },
    { schema: replaceArtistInput, mutation: trpc.artists.replace.useMutation({ onSuccess: saved }) },
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const payload = {
      name: values.name,
      bio: values.bio.trim() === '' ? null : values.bio,
      // Non-admins may not touch the link: leave it out and the API keeps it.
      ...(isAdmin ? { userId: values.userId || null } : {}),
    };
    save(artist ? { artistId: artist.id, ...payload } : payload);
  }

  return (
    <DialogForm
      onSubmit={submit}
      error={mutation.error}
      busy={mutation.isPending}
      submitLabel={artist ? 'Save artist' : 'Create artist'}
      onCancel={onCancel}
    >
      <TextInput label="Name" value={values.name} onChange={set('name')} error={errorOf('name')} />
      <TextArea
        label="Biography"
        value={values.bio}
        onChange={set('bio')}
        error={errorOf('bio')}
        hint="Up to 2000 characters"
      />
      {isAdmin && (
        <Select
          label="Managed by account"
          value={values.userId}
          onChange={set('userId')}
          error={errorOf('userId')}
          hint="An account with the role Artist may then edit this artist and its songs."
        >
          <option value="">No account</option>
          {accounts.data?.data.map((user) => (
            <option key={user.id} value={user.id}>
              {user.username} ({user.email})
            </option>
          ))}
        </Select>
      )}
    </DialogForm>
  );
}
