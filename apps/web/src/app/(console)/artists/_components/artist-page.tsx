'use client';

import { pageMode } from '@music/api-router/schemas';
import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { ArtistForm } from '@/app/(console)/artists/_components/artist-form';
import { SongAction, SongLine, SongSearch } from '@/components/catalogue/song-search';
import { PageHeader } from '@/components/shell/guard';
import { HistoryLink } from '@/components/shell/history-link';
import { useMe } from '@/components/shell/session';
import { Button, ErrorNotice, formatDuration, Notice, Pager, QueryView } from '@/components/ui';
import { useConfirmDelete } from '@/components/ui/confirm-delete';
import { RecordTitle } from '@/components/ui/page-title';
import { RecordView } from '@/components/ui/record-view';
import { type Artist, trpc } from '@/lib/trpc';

const LIMIT = 20;

/** An artist: its facts, its songs, and for whoever manages it, the edit form. */
export function ArtistPage() {
  const { artistId } = useParams<{ artistId: string }>();
  const me = useMe();
  const artist = trpc.artists.get.useQuery({ artistId });
  const isAdmin = me.role === 'admin';
  return (
    <>
      <RecordTitle query={artist} kind="Artist" name={(data) => data.name} />
      <RecordView query={artist} back={{ href: '/artists', label: 'Back to artists' }}>
        {(data) => (
          <ArtistDetail artist={data} mayEdit={isAdmin || data.userId === me.id} isAdmin={isAdmin} />
        )}
      </RecordView>
    </>
  );
}

function ArtistDetail({ artist, mayEdit, isAdmin }: { artist: Artist; mayEdit: boolean; isAdmin: boolean }) {
  const router = useRouter();
  const utils = trpc.useUtils();
  const [saved, setSaved] = useState(false);
  const remove = trpc.artists.delete.useMutation({
    onSuccess: async () => {
      await utils.artists.list.invalidate();
      router.push('/artists');
    },
  });
  const confirmDelete = useConfirmDelete(remove, {
    title: 'Delete artist',
    input: (record: Artist) => ({ artistId: record.id }),
    body: (record) => `Delete “${record.name}”? Its songs stay in the catalogue, unlinked from it.`,
  });
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/artists">Artists</Link> / <bdi>{artist.name}</bdi>
      </p>
      <PageHeader title={artist.name}>
        <HistoryLink type="artist" id={artist.id} />
        {isAdmin && (
          <Button variant="danger" onClick={() => confirmDelete.ask(artist)}>
            Delete artist
          </Button>
        )}
      </PageHeader>
      {mayEdit ? (
        <section className="card" aria-labelledby="profile">
          <h2 id="profile">Profile</h2>
          {saved && <Notice tone="success">Saved.</Notice>}
          <ArtistForm key={artist.updatedAt} artist={artist} onSaved={() => setSaved(true)} />
        </section>
      ) : artist.bio ? (
        <p className="description">
          <bdi>{artist.bio}</bdi>
        </p>
      ) : (
        <p className="muted">No biography yet.</p>
      )}
      <ArtistSongs artist={artist} mayLink={isAdmin} />
      {confirmDelete.dialog}
    </>
  );
}

function ArtistSongs({ artist, mayLink }: { artist: Artist; mayLink: boolean }) {
  const [page, setPage] = useState(1);
  const utils = trpc.useUtils();
  const songs = trpc.artists.songs.useQuery(
    { artistId: artist.id, page, limit: LIMIT },
    { placeholderData: (p) => p },
  );
  const refresh = () => Promise.all([utils.artists.songs.invalidate(), utils.songs.invalidate()]);
  const unlink = trpc.artists.unlinkSong.useMutation({ onSuccess: refresh });
  return (
    <section className="card" aria-labelledby="artist-songs">
      <h2 id="artist-songs">Songs</h2>
      <ErrorNotice error={unlink.error} />
      <QueryView
        query={songs}
        isEmpty={(data) => data.data.length === 0}
        empty={
          <>
            No songs linked to <bdi>{artist.name}</bdi> yet.
          </>
        }
      >
        {(data) => (
          <>
            <ul className="rows">
              {data.data.map((song) => (
                <li key={song.id} className="row">
                  <Link href={`/songs/${song.id}`}>{song.title}</Link>
                  <span className="muted">{formatDuration(song.duration)}</span>
                  {mayLink && (
                    <SongAction
                      song={song}
                      verb="Unlink"
                      mutation={unlink}
                      onClick={() => unlink.mutate({ artistId: artist.id, songId: song.id })}
                    />
                  )}
                </li>
              ))}
            </ul>
            <Pager page={page} limit={LIMIT} total={pageMode(data.pagination).total} onPage={setPage} />
          </>
        )}
      </QueryView>
      {mayLink && <LinkSong artist={artist} onLinked={refresh} />}
    </section>
  );
}

function LinkSong({ artist, onLinked }: { artist: Artist; onLinked: () => Promise<unknown> }) {
  const link = trpc.artists.linkSong.useMutation({ onSuccess: onLinked });
  return (
    <div className="subsection">
      <h3>Link a song</h3>
      <SongSearch label={`Search songs to link to ${artist.name}`} limit={8} error={link.error}>
        {(song, artistNames) => (
          <>
            <SongLine song={song} artistNames={artistNames} />
            <SongAction
              song={song}
              verb="Link"
              mutation={link}
              onClick={() => link.mutate({ artistId: artist.id, songId: song.id })}
              done={{ when: song.artistIds.includes(artist.id), label: 'Linked', status: 'is linked' }}
            />
          </>
        )}
      </SongSearch>
    </div>
  );
}
