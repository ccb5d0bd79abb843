'use client';

import { createPlaylistInput, pageMode } from '@music/api-router/schemas';
import { useEffect, useRef, useState } from 'react';
import { useMe } from '@/components/shell/session';
import { Button, Pager, QueryView, TextInput } from '@/components/ui';
import { Dialog } from '@/components/ui/dialog';
import { songCount } from '@/lib/bulk';
import { describeError, toProblem } from '@/lib/errors';
import { type Playlist, trpc } from '@/lib/trpc';
import { issueInWords } from '@/lib/validation-words';
import { addSongs } from './bulk-writes';

const LIMIT = 20;

interface SongRef {
  id: string;
  title: string;
}

/**
 * What an add of many songs did (a bulk action), for its Undo: the playlist as it left it, and
 * the songs it put in (those already there are not), or that it made the playlist.
 */
export interface AddedMany {
  playlist: Playlist;
  added: string[];
  made: boolean;
}

/** What the dialog is open for: one song, or many with what to do once they are in. */
interface Target {
  songs: SongRef[];
  onAdded?: (result: AddedMany) => void;
}

/** What became of the last add: said in words, and focused so it is read out and the place is kept. */
interface Outcome {
  tone: 'success' | 'error';
  text: string;
}

/**
 * "Add to playlist" for songs: `button(song)` opens a dialog listing the signed-in user's own
 * playlists (every role owns some), each with an Add button, or saying the song is already in
 * it, and under them a new playlist made with the song in it. Render `dialog` once in the page. A button `inRow` (one of many on a list) is a quiet one
 * that names its song for screen readers. `openFor(songs, onAdded)` opens it for many songs (a
 * bulk action): a playlist takes those not in it yet in one write, and the dialog closes on
 * `onAdded` with what was done.
 */
export function useAddToPlaylist() {
  const [target, setTarget] = useState<Target | null>(null);
  const close = () => setTarget(null);
  const songs = target?.songs ?? [];
  const title =
    songs.length === 1
      ? `Add “${songs[0]!.title}” to a playlist`
      : `Add ${songCount(songs.length)} to a playlist`;
  return {
    button: (record: SongRef, { inRow = false }: { inRow?: boolean } = {}) => (
      <Button
        variant={inRow ? 'ghost' : 'secondary'}
        onClick={() => setTarget({ songs: [{ id: record.id, title: record.title }] })}
        aria-label={inRow ? `Add to playlist: ${record.title}` : undefined}
      >
        Add to playlist
      </Button>
    ),
    openFor: (many: SongRef[], onAdded: (result: AddedMany) => void) =>
      setTarget({
        songs: many.map(({ id, title }) => ({ id, title })),
        onAdded: (result) => {
          close();
          onAdded(result);
        },
      }),
    dialog: (
      <Dialog open={target !== null} title={title} onClose={close}>
        {target && <PlaylistChoices target={target} onClose={close} />}
      </Dialog>
    ),
  };
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function PlaylistChoices({ target, onClose }: { target: Target; onClose: () => void }) {
  const me = useMe();
  const song = target.songs[0]!;
  const many = target.onAdded !== undefined;
  const ids = target.songs.map((s) => s.id);
  const [adding, setAdding] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const utils = trpc.useUtils();
  // The user's own playlists, as the playlists page lists "My playlists".
  const playlists = trpc.playlists.list.useQuery(
    { userId: me.id, page, limit: LIMIT },
    { placeholderData: (previous) => previous },
  );
  const add = trpc.playlists.addSong.useMutation({
    // Every view of playlists (this list's songIds, a playlist's page and its songs) is out of date.
    onSettled: () => utils.playlists.invalidate(),
  });
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  async function addManyTo(playlist: Playlist) {
    setOutcome(null);
    setAdding(playlist.id);
    try {
      const { saved, added } = await addSongs(utils, playlist, ids);
      void utils.playlists.invalidate();
      target.onAdded?.({ playlist: saved, added, made: false });
    } catch (error) {
      setOutcome({
        tone: 'error',
        text: `Nothing added to “${playlist.name}”. ${sentence(describeError(error))}`,
      });
    } finally {
      setAdding(null);
    }
  }

  function addTo(playlist: Playlist) {
    if (many) {
      void addManyTo(playlist);
      return;
    }
    setOutcome(null);
    add.mutate(
      { playlistId: playlist.id, songId: song.id },
      {
        onSuccess: () =>
          setOutcome({ tone: 'success', text: `Added “${song.title}” to “${playlist.name}”.` }),
        onError: (error) => {
          // 409: already there (someone added it since this list was read), or the playlist is full.
          const problem = toProblem(error);
          const why = problem.code === 'CONFLICT' ? problem.message : describeError(error);
          setOutcome({ tone: 'error', text: `Not added to “${playlist.name}”. ${sentence(why)}` });
        },
      },
    );
  }

  return (
    <>
      <div className="dialog-body">
        {outcome && (
          <p
            ref={outcomeRef}
            tabIndex={-1}
            className={`notice notice-${outcome.tone}`}
            role={outcome.tone === 'error' ? 'alert' : 'status'}
          >
            {outcome.text}
          </p>
        )}
        <QueryView
          query={playlists}
          isEmpty={(data) => data.data.length === 0}
          empty={
            <>You have no playlists yet: make one below, with {many ? 'these songs' : 'this song'} in it.</>
          }
        >
          {(data) => (
            <>
              <ul className="rows playlist-choices" aria-label="Your playlists">
                {data.data.map((playlist) => (
                  <li key={playlist.id} className="row">
                    <span className="grow">
                      {/* A name is anyone's text: isolated, a right-to-left one cannot reorder the count. */}
                      <bdi>{playlist.name}</bdi>{' '}
                      <span className="muted">
                        · {playlist.songCount} {playlist.songCount === 1 ? 'song' : 'songs'}
                      </span>
                    </span>
                    {ids.every((id) => playlist.songIds.includes(id)) ? (
                      <span className="muted">
                        {many ? 'All already in this playlist' : 'Already in this playlist'}
                      </span>
                    ) : (
                      <Button
                        variant="ghost"
                        busy={
                          adding === playlist.id ||
                          (add.isPending && add.variables?.playlistId === playlist.id)
                        }
                        onClick={() => addTo(playlist)}
                        aria-label={`Add to ${playlist.name}`}
                      >
                        Add
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
              <Pager
                page={page}
                limit={LIMIT}
                total={pageMode(data.pagination).total}
                onPage={setPage}
                label="Pages of your playlists"
              />
            </>
          )}
        </QueryView>
        <NewPlaylist
          songs={target.songs}
          onCreated={(playlist, text) =>
            target.onAdded
              ? target.onAdded({ playlist, added: ids, made: true })
              : setOutcome({ tone: 'success', text })
          }
        />
      </div>
      <footer className="dialog-actions">
        <Button onClick={onClose}>Done</Button>
      </footer>
    </>
  );
}

/** A new playlist of the user's own, made private with the songs in it (named as its form's schema says). */
function NewPlaylist({
  songs,
  onCreated,
}: {
  songs: SongRef[];
  onCreated: (playlist: Playlist, text: string) => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const utils = trpc.useUtils();
  const create = trpc.playlists.create.useMutation({ onSettled: () => utils.playlists.invalidate() });
  const rule = createPlaylistInput.shape.name;
  function submit() {
    const parsed = rule.safeParse(name);
    if (!parsed.success) {
      setError(issueInWords(parsed.error.issues[0]!, { noun: 'a name' }));
      return;
    }
    setError(undefined);
    create.mutate(
      { name: parsed.data, songIds: songs.map((s) => s.id) },
      {
        onSuccess: (playlist) => {
          setName('');
          const what = songs.length === 1 ? `“${songs[0]!.title}”` : songCount(songs.length);
          onCreated(playlist, `Created “${playlist.name}” with ${what} in it.`);
        },
        onError: (failure) => setError(describeError(failure)),
      },
    );
  }
  return (
    <form
      className="subsection new-playlist"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <TextInput
        label="New playlist"
        value={name}
        placeholder="Name it"
        limit={100}
        error={error}
        onChange={(event) => {
          setName(event.target.value);
          if (error) setError(undefined);
        }}
      />
      <Button type="submit" variant="secondary" busy={create.isPending}>
        Create and add
      </Button>
    </form>
  );
}
