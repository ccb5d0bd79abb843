'use client';

import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { type DragEvent, type KeyboardEvent, useEffect, useState } from 'react';
import { ArtistNames } from '@/components/artists';
import { useConfirmDelete } from '@/components/confirm-delete';
import { PageHeader } from '@/components/guard';
import { PlaylistForm } from '@/components/playlist-form';
import { Owner } from '@/components/playlist-owner';
import { RecordView } from '@/components/record-view';
import { useMe } from '@/components/session';
import { SongAction, SongSearch } from '@/components/song-search';
import { Button, Dialog, ErrorNotice, formatDuration, Notice, Pager, QueryView } from '@/components/ui';
import { toProblem } from '@/lib/errors';
import { type Playlist, trpc } from '@/lib/trpc';

const LIMIT = 50;

export default function PlaylistPage() {
  const { playlistId } = useParams<{ playlistId: string }>();
  const me = useMe();
  const playlist = trpc.playlists.get.useQuery({ playlistId });
  return (
    <RecordView query={playlist} back={{ href: '/playlists', label: 'Back to playlists' }}>
      {(data) => <PlaylistDetail playlist={data} mayEdit={me.role === 'admin' || data.userId === me.id} />}
    </RecordView>
  );
}

function PlaylistDetail({ playlist, mayEdit }: { playlist: Playlist; mayEdit: boolean }) {
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
        <Link href="/playlists">Playlists</Link> / {playlist.name}
      </p>
      <PageHeader title={playlist.name}>
        {mayEdit && (
          <>
            <Button onClick={() => setEditing(true)}>Edit details</Button>
            <Button variant="danger" onClick={() => confirmDelete.ask(playlist)}>
              Delete
            </Button>
          </>
        )}
      </PageHeader>
      <p className="muted">
        <span className={`badge ${playlist.isPublic ? 'badge-public' : ''}`}>
          {playlist.isPublic ? 'Public' : 'Private'}
        </span>{' '}
        · {playlist.songCount} {playlist.songCount === 1 ? 'song' : 'songs'} · by{' '}
        <Owner playlist={playlist} />
      </p>
      {playlist.description && <p className="description">{playlist.description}</p>}
      {!mayEdit && (
        <Notice>This is another listener’s public playlist: you can listen along but not change it.</Notice>
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

function move<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/**
 * The songs in playlist order. Reordering sends the whole new order (`PUT` with `songIds`, the
 * contract's way); drag a row, or focus its handle and use Alt+↑/↓, or the Up/Down buttons.
 */
function PlaylistSongs({
  playlist,
  mayEdit,
  refresh,
}: {
  playlist: Playlist;
  mayEdit: boolean;
  refresh: () => Promise<unknown>;
}) {
  const [page, setPage] = useState(1);
  const [dragging, setDragging] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusId, setFocusId] = useState<string | null>(null);
  // Moving a row moves its DOM node, which drops focus: put it back on the moved row's handle.
  useEffect(() => {
    if (!focusId) return;
    document.querySelector<HTMLButtonElement>(`[data-handle="${focusId}"]`)?.focus();
  });
  const utils = trpc.useUtils();
  const songs = trpc.playlists.songs.useQuery(
    { playlistId: playlist.id, page, limit: LIMIT },
    { placeholderData: (p) => p },
  );
  const reorder = trpc.playlists.replace.useMutation({ onSettled: refresh });
  const removeSong = trpc.playlists.removeSong.useMutation({ onSettled: refresh });

  const offset = (page - 1) * LIMIT;
  function moveTo(from: number, to: number) {
    if (to < 0 || to >= playlist.songIds.length || from === to) return;
    const songIds = move(playlist.songIds, from, to);
    // Optimistic: show the new order at once; the server's answer replaces it.
    utils.playlists.get.setData({ playlistId: playlist.id }, { ...playlist, songIds });
    const current = utils.playlists.songs.getData({ playlistId: playlist.id, page, limit: LIMIT });
    if (current && from >= offset && to >= offset && from < offset + LIMIT && to < offset + LIMIT) {
      utils.playlists.songs.setData(
        { playlistId: playlist.id, page, limit: LIMIT },
        { ...current, data: move(current.data, from - offset, to - offset) },
      );
    }
    setAnnouncement(`Moved to position ${to + 1} of ${playlist.songIds.length}`);
    reorder.mutate({
      playlistId: playlist.id,
      name: playlist.name,
      description: playlist.description,
      isPublic: playlist.isPublic,
      songIds,
    });
  }
  function onKey(event: KeyboardEvent, index: number) {
    if (!event.altKey) return;
    const id = playlist.songIds[index] ?? null;
    if (event.key === 'ArrowUp') {
      event.preventDefault();
      setFocusId(id);
      moveTo(index, index - 1);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      setFocusId(id);
      moveTo(index, index + 1);
    }
  }
  function onDrop(event: DragEvent, index: number) {
    event.preventDefault();
    if (dragging !== null) moveTo(dragging, index);
    setDragging(null);
  }

  return (
    <section className="card" aria-labelledby="playlist-songs">
      <h2 id="playlist-songs">Songs</h2>
      {mayEdit && playlist.songCount > 1 && (
        <p className="field-hint">Drag rows to reorder, or focus a row’s handle and press Alt+↑ / Alt+↓.</p>
      )}
      <p className="sr-only" aria-live="assertive">
        {announcement}
      </p>
      <ErrorNotice error={reorder.error ?? removeSong.error} />
      <QueryView
        query={songs}
        isEmpty={(data) => data.data.length === 0}
        empty={
          mayEdit ? 'No songs yet: search the catalogue below to add some.' : 'No songs in this playlist.'
        }
      >
        {(data) => (
          <>
            <ol className="rows tracklist" start={offset + 1}>
              {data.data.map((song, i) => {
                const index = offset + i;
                return (
                  <li
                    key={song.id}
                    className={`row ${dragging === index ? 'row-dragging' : ''}`}
                    draggable={mayEdit}
                    onDragStart={(e) => {
                      setDragging(index);
                      e.dataTransfer.effectAllowed = 'move';
                      e.dataTransfer.setData('text/plain', song.id);
                    }}
                    onDragOver={(e) => {
                      if (dragging !== null) e.preventDefault();
                    }}
                    onDrop={(e) => onDrop(e, index)}
                    onDragEnd={() => setDragging(null)}
                    data-testid="playlist-song"
                  >
                    {mayEdit && (
                      <button
                        type="button"
                        className="handle"
                        data-handle={song.id}
                        onBlur={() => setFocusId(null)}
                        aria-label={`Reorder ${song.title}: position ${index + 1}. Alt+Up or Alt+Down to move`}
                        onKeyDown={(e) => onKey(e, index)}
                      >
                        ⠿
                      </button>
                    )}
                    <span className="position">{index + 1}.</span>
                    <span className="grow">
                      <Link href={`/songs/${song.id}`}>{song.title}</Link>{' '}
                      <span className="muted">
                        <ArtistNames ids={song.artistIds} />
                      </span>
                    </span>
                    <span className="muted">{formatDuration(song.duration)}</span>
                    {mayEdit && (
                      <span className="row-actions">
                        <Button
                          variant="ghost"
                          onClick={() => moveTo(index, index - 1)}
                          disabled={index === 0 || reorder.isPending}
                          aria-label={`Move ${song.title} up`}
                        >
                          ↑
                        </Button>
                        <Button
                          variant="ghost"
                          onClick={() => moveTo(index, index + 1)}
                          disabled={index === playlist.songIds.length - 1 || reorder.isPending}
                          aria-label={`Move ${song.title} down`}
                        >
                          ↓
                        </Button>
                        <SongAction
                          song={song}
                          verb="Remove"
                          mutation={removeSong}
                          onClick={() => removeSong.mutate({ playlistId: playlist.id, songId: song.id })}
                        />
                      </span>
                    )}
                  </li>
                );
              })}
            </ol>
            <Pager page={page} limit={LIMIT} total={data.pagination.total} onPage={setPage} />
          </>
        )}
      </QueryView>
    </section>
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
        {(song) => (
          <>
            <span className="grow">
              {song.title}{' '}
              <span className="muted">
                <ArtistNames ids={song.artistIds} />
              </span>
            </span>
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
