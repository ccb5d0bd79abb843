'use client';

import { pageMode } from '@music/api-router/schemas';
import type { RouterOutputs } from '@music/api-router/types';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui';
import { type Playlist, type Song, trpc } from '@/lib/trpc';

type SongPage = RouterOutputs['playlists']['songs'];

/**
 * Where the focus goes after an edit (the element with this `data-focus`): a row's control
 * (`songId:part`), the page's heading or the songs' heading.
 */
export type FocusKey = `${string}:${'handle' | 'up' | 'down' | 'remove'}` | 'heading' | 'songs';

/** The last edit, said in words; `undo` is what undoing it takes. */
interface EditStatus {
  text: string;
  undo?: { kind: 'move'; song: Song; from: number } | { kind: 'remove'; song: Song; at: number };
}

/** How long the last edit's message (and its Undo) stays, unless the focus or the pointer is on it. */
const STATUS_MS = 10_000;

function move<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/**
 * A playlist's song edits: move, remove and undo the last of them. Each shows at once
 * (optimistic) and is sent at once (an edit held back in the page is lost to a reload); an
 * Undo waits for the edits already sent, so it never overtakes the one it undoes. The playlist
 * is read again once every edit is in, not between them (that would show an order the screen
 * has moved past).
 * Reordering sends the whole order (`replace` with `songIds`, the contract's way), and so does
 * an Undo: for a remove, the order with the song back at its place.
 */
export function usePlaylistEdits({
  playlist,
  page,
  limit,
  setPage,
  refresh,
}: {
  playlist: Playlist;
  page: number;
  limit: number;
  setPage: (page: number) => void;
  refresh: () => Promise<unknown>;
}) {
  const utils = trpc.useUtils();
  const playlistId = playlist.id;
  const pageInput = { playlistId, page, limit };
  const offset = (page - 1) * limit;
  const reorder = trpc.playlists.replace.useMutation();
  const removeSong = trpc.playlists.removeSong.useMutation();
  const [status, setStatus] = useState<EditStatus | null>(null);
  const [held, setHeld] = useState(false);
  const [focusKey, setFocusKey] = useState<FocusKey | null>(null);
  const inFlight = useRef(0);
  // Settles once every edit sent so far has (each one's failure is caught where it is sent).
  const sent = useRef<Promise<unknown>>(Promise.resolve());

  // A moved row's DOM node moves, and a removed one goes, either of which drops the focus to
  // <body>: put it where the edit said, after each render until the rows have been drawn anew.
  // The cache tells its observers of an edit a task later (react-query's setTimeout 0), so the
  // target is kept until the task after the edit's first render, not just for that render.
  useEffect(() => {
    if (!focusKey) return;
    const target =
      document.querySelector<HTMLElement>(`[data-focus="${focusKey}"]`) ??
      document.querySelector<HTMLElement>('[data-focus="songs"]');
    if (target && target !== document.activeElement) target.focus();
  });
  useEffect(() => {
    if (!focusKey) return;
    const timer = setTimeout(() => setFocusKey(null), 0);
    return () => clearTimeout(timer);
  }, [focusKey]);

  useEffect(() => {
    if (!status || held) return;
    const timer = setTimeout(() => setStatus(null), STATUS_MS);
    return () => clearTimeout(timer);
  }, [status, held]);

  // The cache holds the latest order (this render's props may predate an edit made just now).
  const current = () => utils.playlists.get.getData({ playlistId }) ?? playlist;
  const pageRows = () => utils.playlists.songs.getData(pageInput);
  const onPage = (index: number, rows: SongPage) => index >= offset && index < offset + rows.data.length;

  function send(call: () => Promise<unknown>) {
    inFlight.current += 1;
    const done = call()
      // The mutation's error is on screen (ErrorNotice); the message would claim what did not happen.
      .catch(() => setStatus(null))
      .finally(() => {
        inFlight.current -= 1;
        if (inFlight.current === 0) void refresh();
      });
    sent.current = Promise.all([sent.current, done]);
  }

  /** Shows `songIds` (and the page's rows, when given) before the server has them. */
  function show(songIds: string[], rows: SongPage | undefined) {
    void utils.playlists.get.cancel({ playlistId });
    void utils.playlists.songs.cancel({ playlistId });
    utils.playlists.get.setData(
      { playlistId },
      (old) => old && { ...old, songIds, songCount: songIds.length },
    );
    if (rows) utils.playlists.songs.setData(pageInput, rows);
  }

  /** Sends an order; `afterSent`: once the edits already sent are in (an Undo's). */
  function sendOrder(songIds: string[], afterSent = false) {
    const { name, description, isPublic } = current();
    const call = () => reorder.mutateAsync({ playlistId, name, description, isPublic, songIds });
    const before = sent.current;
    send(afterSent ? () => before.then(call) : call);
  }

  /** Moves a song from `from` to `to` on screen and on the server; whether it could. */
  function place(songId: string, from: number, to: number, afterSent = false): boolean {
    const songIds = current().songIds;
    if (to < 0 || to >= songIds.length || from === to || songIds[from] !== songId) return false;
    const rows = pageRows();
    show(
      move(songIds, from, to),
      rows && onPage(from, rows) && onPage(to, rows)
        ? { ...rows, data: move(rows.data, from - offset, to - offset) }
        : undefined,
    );
    sendOrder(move(songIds, from, to), afterSent);
    return true;
  }

  /** Moves `song` to position `to` (from 0), then focuses `focus` (the control that moved it). */
  function moveTo(song: Song, to: number, focus: FocusKey | null) {
    const from = current().songIds.indexOf(song.id);
    if (focus) setFocusKey(focus);
    if (!place(song.id, from, to)) return;
    setStatus({ text: `Moved “${song.title}” to position ${to + 1}.`, undo: { kind: 'move', song, from } });
  }

  /** Removes `song`; the focus goes to the next row's Remove (the previous one's at the end). */
  function remove(song: Song) {
    const songIds = current().songIds;
    const at = songIds.indexOf(song.id);
    if (at < 0) return;
    const rows = pageRows();
    const i = rows ? rows.data.findIndex((row) => row.id === song.id) : -1;
    const neighbour = rows?.data[i + 1] ?? rows?.data[i - 1];
    setFocusKey(neighbour ? `${neighbour.id}:remove` : 'heading');
    const left = songIds.filter((id) => id !== song.id);
    show(
      left,
      rows && {
        ...rows,
        data: rows.data.filter((row) => row.id !== song.id),
        pagination: { ...pageMode(rows.pagination), total: pageMode(rows.pagination).total - 1 },
      },
    );
    // The last song of the last page gone: the page before it, rather than an empty one.
    if (!neighbour && page > 1 && left.length <= offset) setPage(page - 1);
    send(() => removeSong.mutateAsync({ playlistId, songId: song.id }));
    setStatus({ text: `Removed “${song.title}” from the playlist.`, undo: { kind: 'remove', song, at } });
  }

  /** Undoes the last edit, counted from the order as it is now (adds made since are kept). */
  function undo() {
    const last = status?.undo;
    if (!last) return;
    setHeld(false);
    const { song } = last;
    const songIds = current().songIds;
    if (last.kind === 'move') {
      const from = songIds.indexOf(song.id);
      if (from < 0 || last.from >= songIds.length) {
        setStatus(null);
        return;
      }
      const rows = pageRows();
      const visible = rows !== undefined && onPage(from, rows) && onPage(last.from, rows);
      setFocusKey(visible ? `${song.id}:handle` : 'songs');
      if (from !== last.from) place(song.id, from, last.from, true);
      setStatus({ text: `“${song.title}” is back at position ${last.from + 1}.` });
      return;
    }
    // Added back since (from the search below): nothing to undo.
    if (songIds.includes(song.id)) {
      setStatus(null);
      return;
    }
    const at = Math.min(last.at, songIds.length);
    const back = [...songIds];
    back.splice(at, 0, song.id);
    const rows = pageRows();
    const visible = rows !== undefined && at >= offset && at < offset + limit;
    if (rows && visible) {
      const data = [...rows.data];
      data.splice(at - offset, 0, song);
      show(back, {
        ...rows,
        data: data.slice(0, limit),
        pagination: { ...pageMode(rows.pagination), total: pageMode(rows.pagination).total + 1 },
      });
    } else {
      show(back, undefined);
    }
    sendOrder(back, true);
    setFocusKey(visible ? `${song.id}:remove` : 'songs');
    setStatus({ text: `“${song.title}” is back at position ${at + 1}.` });
  }

  return {
    moveTo,
    remove,
    undo,
    status,
    setHeld,
    /** A reorder is on its way: Up and Down wait for it, so two orders sent at once cannot cross. */
    reordering: reorder.isPending,
    error: reorder.error ?? removeSong.error,
  };
}

export type PlaylistEdits = ReturnType<typeof usePlaylistEdits>;

/**
 * The line above the songs: the last edit in words, with its Undo, or else `children` (the
 * hint). The live region is there from the start, so screen readers read each message. The
 * message stays while the focus or the pointer is on its Undo. The line keeps its height as
 * messages come and go, so the rows below do not jump under a finger or a pointer.
 */
export function PlaylistStatus({ edits, children }: { edits: PlaylistEdits; children: ReactNode }) {
  const id = useId();
  const { status, setHeld } = edits;
  return (
    <div className="playlist-message" data-open={status ? 'true' : undefined}>
      {!status && children}
      <p role="status" id={id}>
        {status?.text}
      </p>
      {status?.undo && (
        <Button
          onClick={edits.undo}
          aria-describedby={id}
          onFocus={() => setHeld(true)}
          onBlur={() => setHeld(false)}
          onPointerEnter={() => setHeld(true)}
          onPointerLeave={() => setHeld(false)}
        >
          Undo
        </Button>
      )}
    </div>
  );
}
