'use client';

import { createArtistInput, replaceArtistInput } from '@music/api-router/schemas';
import { useMe } from '@/components/shell/session';
import { Select, TextArea, TextInput } from '@/components/ui';
import { DialogForm, type RecordFormProps } from '@/components/ui/dialog-form';
import { orNull, useSave } from '@/lib/form';
import { type Artist, trpc } from '@/lib/trpc';

/** Create or replace an artist. Only admins see (and may set) the linked account. */
export function ArtistForm({
  artist,
  onSaved,
  onCancel,
}: RecordFormProps<Artist> & { artist: Artist | null }) {
  const me = useMe();
  const isAdmin = me.role === 'admin';
  const utils = trpc.useUtils();
  const accounts = trpc.users.list.useQuery({ role: 'artist', limit: 100 }, { enabled: isAdmin });
  const saved = async (result: Artist) => {
    utils.artists.get.setData({ artistId: result.id }, result);
    await utils.artists.list.invalidate();
    onSaved(result);
  };
  const { field, mutation, save } = useSave(
    { name: artist?.name ?? '', bio: artist?.bio ?? '', userId: artist?.userId ?? '' },
    artist && { artistId: artist.id },
    { schema: createArtistInput, mutation: trpc.artists.create.useMutation({ onSuccess: saved }) },
    { schema: replaceArtistInput, mutation: trpc.artists.replace.useMutation({ onSuccess: saved }) },
    {
      payload: (values) => ({
        name: values.name,
        bio: orNull(values.bio),
        // Non-admins may not touch the link: leave it out and the API keeps it.
        ...(isAdmin ? { userId: values.userId || null } : {}),
      }),
      nouns: { name: 'a name', userId: 'an account' },
    },
  );

  return (
    <DialogForm
      onSubmit={save}
      mutation={mutation}
      submitLabel={artist ? 'Save artist' : 'Create artist'}
      onCancel={onCancel}
      requiredNote
    >
      <TextInput label="Name" {...field('name')} />
      <TextArea label="Biography" {...field('bio')} />
      {isAdmin && (
        <Select
          label="Managed by account"
          {...field('userId')}
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
