'use client';

import { pageMode } from '@music/api-router/schemas';
import './playlist.css';
import Link from 'next/link';
import { type DragEvent, type KeyboardEvent, useState } from 'react';
import {
  type FocusKey,
  type PlaylistEdits,
  PlaylistStatus,
  usePlaylistEdits,
} from '@/app/(console)/playlists/_components/playlist-edits';
import { useTouchReorder } from '@/app/(console)/playlists/_components/playlist-touch';
import { ArtistNameList, useArtistNames } from '@/components/catalogue/artists';
import { Button, ErrorNotice, formatDuration, Pager, QueryView } from '@/components/ui';
import { type Playlist, type Song, trpc } from '@/lib/trpc';

/** Songs per page of a playlist. */
export const PLAYLIST_PAGE_SIZE = 50;

/**
 * The songs in playlist order. Reorder by dragging a row (mouse: the row, touch: its handle),
 * by Alt+↑/↓ on a row's handle, or by its Up/Down buttons; remove with its Remove button. The
 * last edit is said in a status message with an Undo.
 */
export function PlaylistSongs({
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
  const songs = trpc.playlists.songs.useQuery(
    { playlistId: playlist.id, page, limit: PLAYLIST_PAGE_SIZE },
    { placeholderData: (p) => p },
  );
  // Every artist on the page in one call.
  const artistNames = useArtistNames(songs.data?.data.flatMap((song) => song.artistIds) ?? []);
  const edits = usePlaylistEdits({ playlist, page, limit: PLAYLIST_PAGE_SIZE, setPage, refresh });
  const offset = (page - 1) * PLAYLIST_PAGE_SIZE;
  const songAt = (index: number) => songs.data?.data[index - offset];
  const touch = useTouchReorder((from, to) => {
    const song = songAt(from);
    if (song) edits.moveTo(song, to, null);
  });

  function onDrop(event: DragEvent, index: number) {
    event.preventDefault();
    const song = dragging === null ? undefined : songAt(dragging);
    if (song) edits.moveTo(song, index, null);
    setDragging(null);
  }

  return (
    <section className="card" aria-labelledby="playlist-songs">
      <h2 id="playlist-songs" tabIndex={-1} data-focus="songs">
        Songs
      </h2>
      {mayEdit && <PlaylistStatus edits={edits}>{playlist.songCount > 1 && <ReorderHint />}</PlaylistStatus>}
      <ErrorNotice error={edits.error} />
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
                const shown = touch.position(index);
                const lifted = touch.drag?.from === index;
                return (
                  <li
                    key={song.id}
                    className={`row playlist-row ${dragging === index ? 'row-dragging' : ''} ${lifted ? 'playlist-row-lifted' : ''}`}
                    // While a finger drags, rows show where they would go without moving in the DOM.
                    style={touch.drag ? { order: shown - offset } : undefined}
                    data-playlist-position={shown}
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
                        className="handle playlist-handle"
                        data-focus={`${song.id}:handle`}
                        aria-label={`Reorder ${song.title}: position ${shown + 1}. Alt+Up or Alt+Down to move`}
                        onKeyDown={(e) => onKey(e, edits, song, index)}
                        {...touch.handleProps(index)}
                      >
                        ⠿
                      </button>
                    )}
                    <span className="position">{shown + 1}.</span>
                    <span className="grow playlist-song">
                      <Link className="playlist-title" href={`/songs/${song.id}`}>
                        <bdi>{song.title}</bdi>
                      </Link>{' '}
                      <span className="muted playlist-artists">
                        <ArtistNameList ids={song.artistIds} names={artistNames} />
                      </span>
                    </span>
                    <span className="muted playlist-length">{formatDuration(song.duration)}</span>
                    {mayEdit && (
                      <RowActions
                        song={song}
                        index={index}
                        last={index === playlist.songIds.length - 1}
                        edits={edits}
                      />
                    )}
                  </li>
                );
              })}
            </ol>
            <Pager
              page={page}
              limit={PLAYLIST_PAGE_SIZE}
              total={pageMode(data.pagination).total}
              onPage={setPage}
            />
          </>
        )}
      </QueryView>
    </section>
  );
}

function onKey(event: KeyboardEvent, edits: PlaylistEdits, song: Song, index: number) {
  if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
  event.preventDefault();
  edits.moveTo(song, event.key === 'ArrowUp' ? index - 1 : index + 1, `${song.id}:handle`);
}

/** Each hint where it applies: dragging with a mouse, the keys with a keyboard, the handle by touch. */
function ReorderHint() {
  return (
    <p className="field-hint playlist-hint">
      <span className="playlist-hint-drag">
        Drag rows to reorder, or focus a row’s handle and press Alt+↑ / Alt+↓.
      </span>
      <span className="playlist-hint-keys">Focus a row’s handle and press Alt+↑ / Alt+↓ to move it.</span>
      <span className="playlist-hint-touch">
        Drag a song by its handle<span aria-hidden="true"> ⠿</span> to move it, or use its ↑ and ↓ buttons.
      </span>
    </p>
  );
}

function RowActions({
  song,
  index,
  last,
  edits,
}: {
  song: Song;
  index: number;
  last: boolean;
  edits: PlaylistEdits;
}) {
  return (
    <span className="row-actions">
      <MoveButton
        label={`Move ${song.title} up`}
        focus={`${song.id}:up`}
        unavailable={index === 0 || edits.reordering}
        onMove={() => edits.moveTo(song, index - 1, `${song.id}:up`)}
      >
        ↑
      </MoveButton>
      <MoveButton
        label={`Move ${song.title} down`}
        focus={`${song.id}:down`}
        unavailable={last || edits.reordering}
        onMove={() => edits.moveTo(song, index + 1, `${song.id}:down`)}
      >
        ↓
      </MoveButton>
      <Button
        variant="ghost"
        data-focus={`${song.id}:remove`}
        aria-label={`Remove ${song.title}`}
        onClick={() => edits.remove(song)}
      >
        Remove
      </Button>
    </span>
  );
}

/**
 * Up or Down. At an end of the list, and while a reorder is on its way, it is `aria-disabled`,
 * not `disabled`: a disabled button loses the focus (to <body>), and this one has just moved its
 * row (to the end, often).
 */
function MoveButton({
  label,
  focus,
  unavailable,
  onMove,
  children,
}: {
  label: string;
  focus: FocusKey;
  unavailable: boolean;
  onMove: () => void;
  children: string;
}) {
  return (
    <button
      type="button"
      className="btn btn-ghost playlist-move"
      data-focus={focus}
      aria-label={label}
      aria-disabled={unavailable || undefined}
      onClick={() => {
        if (!unavailable) onMove();
      }}
    >
      {children}
    </button>
  );
}
