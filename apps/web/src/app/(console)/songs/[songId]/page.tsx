'use client';

import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { ArtistNames } from '@/components/artists';
import { PageHeader } from '@/components/guard';
import { useSongAccess } from '@/components/song-access';
import { SongForm } from '@/components/song-form';
import {
  Button,
  ConfirmDialog,
  ErrorNotice,
  formatDate,
  formatDuration,
  Loading,
  Notice,
} from '@/components/ui';
import { trpc } from '@/lib/trpc';

export default function SongPage() {
  const { songId } = useParams<{ songId: string }>();
  const router = useRouter();
  const access = useSongAccess();
  const song = trpc.songs.get.useQuery({ songId });
  const [saved, setSaved] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const utils = trpc.useUtils();
  const remove = trpc.songs.delete.useMutation({
    onSuccess: async () => {
      await utils.songs.list.invalidate();
      router.push('/songs');
    },
  });

  if (song.isPending || access.ownPending) return <Loading />;
  if (song.isError) {
    return (
      <>
        <ErrorNotice error={song.error} />
        <Link href="/songs">Back to songs</Link>
      </>
    );
  }
  const editable = access.canEdit(song.data);
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/songs">Songs</Link> / {song.data.title}
      </p>
      <PageHeader title={song.data.title}>
        {editable && (
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete song
          </Button>
        )}
      </PageHeader>
      <dl className="facts">
        <dt>Artists</dt>
        <dd>
          <ArtistNames ids={song.data.artistIds} />
        </dd>
        <dt>Length</dt>
        <dd>{formatDuration(song.data.duration)}</dd>
        <dt>Added</dt>
        <dd>{formatDate(song.data.createdAt)}</dd>
      </dl>
      {editable ? (
        <section className="card" aria-labelledby="edit-song">
          <h2 id="edit-song">Edit</h2>
          {saved && <Notice tone="success">Saved.</Notice>}
          <SongForm key={song.data.updatedAt} song={song.data} onSaved={() => setSaved(true)} />
        </section>
      ) : (
        <Notice>
          This song belongs to {access.ownArtists.length > 0 ? 'another artist' : 'the catalogue'}: you can
          read it but not change it.
        </Notice>
      )}
      <ConfirmDialog
        open={deleting}
        title="Delete song"
        body={`Delete “${song.data.title}”? It leaves every playlist and artist it is in.`}
        confirmLabel="Delete song"
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate({ songId })}
        onClose={() => setDeleting(false)}
      />
    </>
  );
}
