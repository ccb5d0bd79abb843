'use client';

import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { ArtistNames } from '@/components/artists';
import { useConfirmDelete } from '@/components/confirm-delete';
import { PageHeader } from '@/components/guard';
import { RecordView } from '@/components/record-view';
import { useSongAccess } from '@/components/song-access';
import { SongForm } from '@/components/song-form';
import { Button, formatDate, formatDuration, Loading, Notice } from '@/components/ui';
import { type Song, trpc } from '@/lib/trpc';

export default function SongPage() {
  const { songId } = useParams<{ songId: string }>();
  const access = useSongAccess();
  const song = trpc.songs.get.useQuery({ songId });
  if (access.ownPending) return <Loading />;
  return (
    <RecordView query={song} back={{ href: '/songs', label: 'Back to songs' }}>
      {(data) => <SongDetail song={data} access={access} />}
    </RecordView>
  );
}

function SongDetail({ song, access }: { song: Song; access: ReturnType<typeof useSongAccess> }) {
  const router = useRouter();
  const [saved, setSaved] = useState(false);
  const utils = trpc.useUtils();
  const remove = trpc.songs.delete.useMutation({
    onSuccess: async () => {
      await utils.songs.list.invalidate();
      router.push('/songs');
    },
  });
  const confirmDelete = useConfirmDelete(remove, {
    title: 'Delete song',
    input: (record: Song) => ({ songId: record.id }),
    body: (record) => `Delete “${record.title}”? It leaves every playlist and artist it is in.`,
  });
  const editable = access.canEdit(song);
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/songs">Songs</Link> / {song.title}
      </p>
      <PageHeader title={song.title}>
        {editable && (
          <Button variant="danger" onClick={() => confirmDelete.ask(song)}>
            Delete song
          </Button>
        )}
      </PageHeader>
      <dl className="facts">
        <dt>Artists</dt>
        <dd>
          <ArtistNames ids={song.artistIds} />
        </dd>
        <dt>Length</dt>
        <dd>{formatDuration(song.duration)}</dd>
        <dt>Added</dt>
        <dd>{formatDate(song.createdAt)}</dd>
      </dl>
      {editable ? (
        <section className="card" aria-labelledby="edit-song">
          <h2 id="edit-song">Edit</h2>
          {saved && <Notice tone="success">Saved.</Notice>}
          <SongForm key={song.updatedAt} song={song} onSaved={() => setSaved(true)} />
        </section>
      ) : (
        <Notice>
          This song belongs to {access.ownArtists.length > 0 ? 'another artist' : 'the catalogue'}: you can
          read it but not change it.
        </Notice>
      )}
      {confirmDelete.dialog}
    </>
  );
}
