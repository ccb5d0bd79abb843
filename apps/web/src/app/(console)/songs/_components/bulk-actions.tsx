'use client';

import { useEffect, useRef, useState } from 'react';
import { useMe } from '@/components/shell/session';
import { Button } from '@/components/ui';
import type { RowSelection } from '@/components/ui/paged-table';
import { useToast } from '@/components/ui/toast';
import { BULK_MAX, type BulkOutcome, songCount } from '@/lib/bulk';
import { describeError } from '@/lib/errors';
import { type Song, trpc } from '@/lib/trpc';
import type { AddedMany, useAddToPlaylist } from './add-to-playlist';
import {
  changedSince,
  deleteMadePlaylist,
  deleteSongs,
  removeSongs,
  setGenre,
  setGenres,
} from './bulk-writes';
import { UNDO_MS, usePendingDeletion } from './pending-deletion';
import { SetGenreDialog } from './set-genre';

/** What the last bulk action did, in words, and how to take it back while that is possible. */
interface Outcome {
  tone: 'success' | 'error' | 'info';
  text: string;
  undo?: () => Promise<void> | void;
}

/** "2 could not be changed: …" for the failures of a bulk action, each song with its reason. */
function failures<Result>(outcome: BulkOutcome<Song, Result>, verb: string): string {
  if (outcome.failed.length === 0) return '';
  const reasons = outcome.failed.map(({ item, error }) =>
    changedSince(error)
      ? `“${item.title}” changed since it was listed`
      : `“${item.title}”: ${describeError(error)}`,
  );
  return ` ${songCount(outcome.failed.length)} could not be ${verb}: ${reasons.join('; ')}.`;
}

/**
 * The songs list's actions on many songs: pick rows (check boxes, or a whole page), then add
 * them to a playlist, set their genre or delete them, each with one Undo that takes the whole
 * action back. Changing and deleting need the right to edit every picked song (admins; artists
 * for their own songs). At most BULK_MAX songs at a time. The bar is where its outcome is said,
 * focused, so a keyboard user finds Undo next.
 */
export function useSongBulk({
  canEdit,
  addToPlaylist,
}: {
  canEdit: (song: Song) => boolean;
  addToPlaylist: ReturnType<typeof useAddToPlaylist>;
}) {
  const utils = trpc.useUtils();
  const me = useMe();
  const [picked, setPicked] = useState<ReadonlyMap<string, Song>>(new Map());
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const [choosingGenre, setChoosingGenre] = useState(false);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const refresh = () => Promise.all([utils.songs.list.invalidate(), utils.artists.songs.invalidate()]);
  const notify = useToast();
  // Whether the list is still on screen when held-back deletes are answered.
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  const deletion = usePendingDeletion((songs) => {
    void deleteSongs(utils, songs).then(async (result) => {
      await refresh();
      const text = `Deleted ${songCount(result.done.length)}.${failures(result, 'deleted')}`;
      // Sent on the way to another page: said there, in the console's messages.
      if (!shown.current) return notify(text);
      deletion.done();
      setOutcome({ tone: result.failed.length > 0 ? 'error' : 'success', text });
    });
  });
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const songs = [...picked.values()];
  const editable = songs.every(canEdit);
  const tell = (next: Outcome) => {
    setPicked(new Map());
    setOutcome(next);
  };

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  }

  function added({ playlist, added: ids, made }: AddedMany) {
    const what = `${songCount(ids.length)} to “${playlist.name}”`;
    tell({
      tone: 'success',
      text: made ? `Created “${playlist.name}” with ${songCount(ids.length)} in it.` : `Added ${what}.`,
      undo: async () => {
        if (made) await deleteMadePlaylist(utils, playlist);
        else await removeSongs(utils, playlist, ids);
        void utils.playlists.invalidate();
        setOutcome({
          tone: 'info',
          text: made ? `Undone: “${playlist.name}” is deleted.` : `Undone: ${what} taken out again.`,
        });
      },
    });
  }

  async function applyGenre(genre: string | null) {
    const chosen = songs;
    setChoosingGenre(false);
    await run(async () => {
      const result = await setGenres(utils, chosen, genre);
      await refresh();
      const changed = result.done.map(({ item, result: saved }) => ({ before: item.genre, saved }));
      tell({
        tone: result.failed.length > 0 ? 'error' : 'success',
        text: `${genre ? `Set the genre of ${songCount(changed.length)} to “${genre}”` : `Cleared the genre of ${songCount(changed.length)}`}.${failures(result, 'changed')}`,
        ...(changed.length > 0 && {
          undo: async () => {
            // Each song back to its own genre, unless it changed again since (its tag is this action's).
            const back = await Promise.allSettled(
              changed.map(({ before, saved }) => setGenre(utils, saved, before)),
            );
            await refresh();
            const kept = back.filter((r) => r.status === 'rejected').length;
            setOutcome({
              tone: kept > 0 ? 'error' : 'info',
              text: `Undone: ${songCount(changed.length - kept)} back to ${changed.length - kept === 1 ? 'its' : 'their'} genre.${kept > 0 ? ` ${songCount(kept)} changed since and ${kept === 1 ? 'was' : 'were'} left as ${kept === 1 ? 'it is' : 'they are'}.` : ''}`,
            });
          },
        }),
      });
    });
  }

  async function remove() {
    const chosen = songs;
    await deletion.schedule(chosen);
    tell({
      tone: 'info',
      text: `${songCount(chosen.length)} will be deleted in ${UNDO_MS / 1000} seconds.`,
      undo: () => {
        deletion.cancel();
        setOutcome({ tone: 'info', text: `Undone: ${songCount(chosen.length)} kept.` });
        setPicked(new Map(chosen.map((song) => [song.id, song])));
      },
    });
  }

  const selection: RowSelection<Song> = {
    isSelected: (song) => picked.has(song.id),
    label: (song) => `Select “${song.title}”`,
    disabled: (song) => deletion.leaving.has(song.id),
    onChange: (rows, on) => {
      const next = new Map(picked);
      for (const row of rows) {
        if (on && next.size < BULK_MAX) next.set(row.id, row);
        else if (!on) next.delete(row.id);
      }
      setPicked(next);
    },
  };

  const bar = (
    <section className="bulk-bar" aria-label="Selected songs">
      {outcome && (
        <p
          ref={outcomeRef}
          tabIndex={-1}
          className={`notice notice-${outcome.tone} bulk-outcome`}
          role="status"
        >
          <span>{outcome.text}</span>
          {outcome.undo && (
            <Button
              variant="secondary"
              busy={busy}
              onClick={() => {
                const undo = outcome.undo!;
                void run(async () => {
                  try {
                    await undo();
                  } catch (error) {
                    setOutcome({ tone: 'error', text: `Could not undo: ${describeError(error)}` });
                  }
                });
              }}
            >
              Undo
            </Button>
          )}
        </p>
      )}
      {songs.length > 0 && (
        <div className="bulk-actions">
          <strong>{songCount(songs.length)} selected</strong>
          {songs.length >= BULK_MAX && <span className="muted">(at most {BULK_MAX} at a time)</span>}
          <Button onClick={() => addToPlaylist.openFor(songs, added)} disabled={busy}>
            Add to playlist
          </Button>
          {editable && (
            <>
              <Button onClick={() => setChoosingGenre(true)} busy={busy}>
                Set genre
              </Button>
              <Button variant="danger" onClick={() => void remove()} disabled={busy}>
                Delete
              </Button>
            </>
          )}
          <Button variant="ghost" onClick={() => setPicked(new Map())}>
            Clear selection
          </Button>
          {!editable && me.role === 'artist' && (
            <span className="muted">Only your own songs can be changed or deleted.</span>
          )}
        </div>
      )}
    </section>
  );

  return {
    selection,
    bar,
    rowClass: (song: Song) => (deletion.leaving.has(song.id) ? 'row-leaving' : undefined),
    dialog: (
      <SetGenreDialog
        open={choosingGenre}
        count={songs.length}
        onCancel={() => setChoosingGenre(false)}
        onChoose={(genre) => void applyGenre(genre)}
      />
    ),
  };
}
