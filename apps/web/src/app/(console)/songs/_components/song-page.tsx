'use client';

import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { useAddToPlaylist } from '@/app/(console)/songs/_components/add-to-playlist';
import { useSongAccess } from '@/app/(console)/songs/_components/song-access';
import { SongForm } from '@/app/(console)/songs/_components/song-form';
import { ArtistNames } from '@/components/catalogue/artists';
import { PageHeader } from '@/components/shell/guard';
import { HistoryLink } from '@/components/shell/history-link';
import { Button, formatDate, formatDuration, Loading, Notice } from '@/components/ui';
import { useConfirmDelete } from '@/components/ui/confirm-delete';
import { RecordTitle } from '@/components/ui/page-title';
import { Facts, RecordView } from '@/components/ui/record-view';
import { type Song, trpc } from '@/lib/trpc';

/** A song: its facts, and for whoever may change it, the edit form and delete. */
export function SongPage() {
  const { songId } = useParams<{ songId: string }>();
  const access = useSongAccess();
  const song = trpc.songs.get.useQuery({ songId });
  if (access.ownPending) return <Loading />;
  return (
    <>
      <RecordTitle query={song} kind="Song" name={(data) => data.title} />
      <RecordView query={song} back={{ href: '/songs', label: 'Back to songs' }}>
        {(data) => <SongDetail song={data} access={access} />}
      </RecordView>
    </>
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
  const addToPlaylist = useAddToPlaylist();
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/songs">Songs</Link> / <bdi>{song.title}</bdi>
      </p>
      <PageHeader title={song.title}>
        {addToPlaylist.button(song)}
        <HistoryLink type="song" id={song.id} />
        {editable && (
          <Button variant="danger" onClick={() => confirmDelete.ask(song)}>
            Delete song
          </Button>
        )}
      </PageHeader>
      <Facts
        facts={[
          ['Artists', <ArtistNames key="artists" ids={song.artistIds} />],
          ['Album', song.album],
          ['Genre', song.genre],
          ['Release year', song.releaseYear],
          ['Length', formatDuration(song.duration)],
          ['ISRC', song.isrc],
          ['External id', song.externalId],
          ['Added', formatDate(song.createdAt)],
        ]}
      />
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
      {addToPlaylist.dialog}
    </>
  );
}
