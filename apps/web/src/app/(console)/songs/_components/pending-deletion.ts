'use client';

import { type RefObject, useEffect, useRef, useState } from 'react';
import { etagOf } from '@/lib/etag';
import type { Song } from '@/lib/trpc';

/** How long deleted songs can still be had back (Undo) before the deletes are sent. */
export const UNDO_MS = 10_000;

interface Pending {
  songs: Song[];
  /** Each song's tag as listed, ready for a delete sent while the page goes away. */
  tags: Map<string, string | undefined>;
  timer: ReturnType<typeof setTimeout>;
}

/** Stops the wait and hands back the songs that were waiting, if any. */
function release(pending: RefObject<Pending | null>): Song[] {
  const current = pending.current;
  if (!current) return [];
  clearTimeout(current.timer);
  pending.current = null;
  return current.songs;
}

/** Sends the waiting deletes now (the undo window closed, or the page is left). */
function flush(pending: RefObject<Pending | null>, send: RefObject<(songs: Song[]) => void>) {
  const songs = release(pending);
  if (songs.length > 0) send.current(songs);
}

/**
 * A deletion with an Undo. The API cannot bring a deleted song back (its links to artists and
 * playlists go with it), so the deletes wait UNDO_MS before they are sent: until then the rows
 * stay, marked as leaving, and Undo simply cancels. Nothing is lost by waiting: leaving the page
 * sends them at once (`send` on unmount), and closing the tab sends them as the tab goes
 * (`pagehide`, with `keepalive` requests that outlive it). A crash in between leaves the songs
 * in place, which is the safe side.
 */
export function usePendingDeletion(send: (songs: Song[]) => void) {
  const pending = useRef<Pending | null>(null);
  const [leaving, setLeaving] = useState<ReadonlySet<string>>(new Set());
  const sendRef = useRef(send);
  sendRef.current = send;

  useEffect(() => {
    // The tab is going away: the deletes go out with it, past the page's end.
    const onPageHide = () => {
      const current = pending.current;
      if (!current) return;
      release(pending);
      for (const song of current.songs) {
        const tag = current.tags.get(song.id);
        void fetch('/api/trpc/songs.delete', {
          method: 'POST',
          keepalive: true,
          headers: { 'content-type': 'application/json', ...(tag ? { 'if-match': tag } : {}) },
          body: JSON.stringify({ songId: song.id }),
        }).catch(() => undefined);
      }
    };
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      // Left for another page of the console: sent now rather than dropped.
      flush(pending, sendRef);
    };
  }, []);

  return {
    leaving,
    /** Marks the songs as leaving and sends their deletes after UNDO_MS (flushing any earlier ones first). */
    async schedule(songs: Song[]) {
      flush(pending, sendRef);
      const tags = new Map(
        await Promise.all(songs.map(async (song) => [song.id, await etagOf(song)] as const)),
      );
      pending.current = {
        songs,
        tags,
        timer: setTimeout(() => flush(pending, sendRef), UNDO_MS),
      };
      setLeaving(new Set(songs.map((song) => song.id)));
    },
    /** Undo: nothing was sent; the rows are back as they were. */
    cancel() {
      release(pending);
      setLeaving(new Set());
    },
    /** Once the deletes are answered: the rows are no longer marked (the list is read again). */
    done() {
      setLeaving(new Set());
    },
  };
}
