'use client';

import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { PlaylistForm } from '@/app/(console)/playlists/_components/playlist-form';
import { PlaylistLength } from '@/app/(console)/playlists/_components/playlist-length';
import { Owner } from '@/app/(console)/playlists/_components/playlist-owner';
import { PLAYLIST_PAGE_SIZE, PlaylistSongs } from '@/app/(console)/playlists/_components/playlist-songs';
import { VisibilitySwitch } from '@/app/(console)/playlists/_components/visibility-switch';
import { SongAction, SongLine, SongSearch } from '@/components/catalogue/song-search';
import { HistoryLink } from '@/components/shell/history-link';
import { useMe } from '@/components/shell/session';
import { Button, Notice } from '@/components/ui';
import { useConfirmDelete } from '@/components/ui/confirm-delete';
import { Dialog } from '@/components/ui/dialog';
import { RecordTitle } from '@/components/ui/page-title';
import { RecordView } from '@/components/ui/record-view';
import { toProblem } from '@/lib/errors';
import { type Playlist, trpc } from '@/lib/trpc';

/** A playlist: its songs in order, and for its owner, the edits. */
export function PlaylistPage() {
  const { playlistId } = useParams<{ playlistId: string }>();
  const me = useMe();
  const playlist = trpc.playlists.get.useQuery({ playlistId });
  return (
    <>
      <RecordTitle query={playlist} kind="Playlist" name={(data) => data.name} />
      <RecordView query={playlist} back={{ href: '/playlists', label: 'Back to playlists' }}>
        {(data) => <PlaylistDetail playlist={data} mayEdit={me.role === 'admin' || data.userId === me.id} />}
      </RecordView>
    </>
  );
}

function PlaylistDetail({ playlist, mayEdit }: { playlist: Playlist; mayEdit: boolean }) {
  const me = useMe();
  const router = useRouter();
  const utils = trpc.useUtils();
  const [editing, setEditing] = useState(false);
  const remove = trpc.playlists.delete.useMutation({
    onSuccess: async () => {
      await utils.playlists.list.invalidate();
      router.push('/playlists');
    },
  });
  const confirmDelete = useConfirmDelete(remove, {
    title: 'Delete playlist',
    input: (record: Playlist) => ({ playlistId: record.id }),
    body: (record) => `Delete “${record.name}”? The songs stay in the catalogue.`,
  });
  // The playlist (its song count and order) and its pages of songs, after any change to its songs.
  const refresh = () =>
    Promise.all([
      utils.playlists.get.invalidate({ playlistId: playlist.id }),
      utils.playlists.songs.invalidate({ playlistId: playlist.id }),
    ]);
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/playlists">Playlists</Link> / <bdi>{playlist.name}</bdi>
      </p>
      {/* PageHeader's markup, with a heading that can take the focus (after the last song's removal). */}
      <div className="page-header">
        <h1 tabIndex={-1} data-focus="heading">
          {playlist.name}
        </h1>
        {mayEdit && (
          <div className="page-actions">
            <HistoryLink type="playlist" id={playlist.id} />
            <Button onClick={() => setEditing(true)}>Edit details</Button>
            <Button variant="danger" onClick={() => confirmDelete.ask(playlist)}>
              Delete
            </Button>
          </div>
        )}
      </div>
      {mayEdit && <VisibilitySwitch playlist={playlist} mine={playlist.userId === me.id} />}
      <p className="muted playlist-facts">
        {!mayEdit && (
          <>
            <span className={`badge ${playlist.isPublic ? 'badge-public' : ''}`}>
              {playlist.isPublic ? 'Public' : 'Private'}
            </span>{' '}
            ·{' '}
          </>
        )}
        <PlaylistLength playlist={playlist} pageSize={PLAYLIST_PAGE_SIZE} /> · by{' '}
        <Owner playlist={playlist} />
      </p>
      {playlist.description && <p className="description">{playlist.description}</p>}
      {!mayEdit && (
        <Notice>This is another listener’s public playlist: you can see its songs but not change it.</Notice>
      )}
      <PlaylistSongs playlist={playlist} mayEdit={mayEdit} refresh={refresh} />
      {mayEdit && <AddSongs playlist={playlist} refresh={refresh} />}
      <Dialog open={editing} title="Edit playlist" onClose={() => setEditing(false)}>
        {editing && (
          <PlaylistForm
            playlist={playlist}
            onSaved={() => setEditing(false)}
            onCancel={() => setEditing(false)}
          />
        )}
      </Dialog>
      {confirmDelete.dialog}
    </>
  );
}

function AddSongs({ playlist, refresh }: { playlist: Playlist; refresh: () => Promise<unknown> }) {
  const add = trpc.playlists.addSong.useMutation({ onSettled: refresh });
  const inPlaylist = new Set(playlist.songIds);
  const problem = add.error ? toProblem(add.error) : null;
  return (
    <section className="card" aria-labelledby="add-songs">
      <h2 id="add-songs">Add songs</h2>
      <SongSearch
        label="Search the catalogue by title, album or artist"
        limit={10}
        error={problem?.code === 'CONFLICT' ? 'That song is already in this playlist.' : add.error}
      >
        {(song, artistNames) => (
          <>
            <SongLine song={song} artistNames={artistNames} />
            <SongAction
              song={song}
              verb="Add"
              mutation={add}
              onClick={() => add.mutate({ playlistId: playlist.id, songId: song.id })}
              done={{ when: inPlaylist.has(song.id), label: 'Added', status: 'is in the playlist' }}
            />
          </>
        )}
      </SongSearch>
    </section>
  );
}
