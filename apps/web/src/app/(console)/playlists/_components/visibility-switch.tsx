'use client';

import { useState } from 'react';
import { ErrorNotice } from '@/components/ui';
import { useToast } from '@/components/ui/toast';
import { toProblem } from '@/lib/errors';
import { etagOf } from '@/lib/etag';
import { type Playlist, trpc } from '@/lib/trpc';

/** 412s in a row the switch absorbs: each means the playlist changed meanwhile (its songs, its name). */
const ATTEMPTS = 3;

/**
 * A playlist's public/private switch, for its owner (and admins), on the playlist's page; `mine`
 * says whether the viewer owns it (a private playlist of someone else's is not "only you"). The API only
 * replaces a playlist whole (PUT), so the switch sends the name and description as the API holds
 * them, with their tag as If-Match: a rename saved meanwhile elsewhere is never undone. On a 412
 * it reads the playlist again and sends again from that; the songs are not sent, so they stay.
 */
export function VisibilitySwitch({ playlist, mine }: { playlist: Playlist; mine: boolean }) {
  const utils = trpc.useUtils();
  const notify = useToast();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const playlistId = playlist.id;

  async function toggle() {
    if (pending) return;
    const isPublic = !playlist.isPublic;
    setPending(true);
    setError(null);
    // The cache may hold an edit of the songs not yet in (shown before the server has it): its
    // tag then matches nothing, the 412 below reads the playlist, and the next try goes through.
    let base = utils.playlists.get.getData({ playlistId }) ?? playlist;
    try {
      for (let attempt = 1; ; attempt++) {
        const ifMatch = await etagOf(base);
        try {
          const saved = await utils.client.playlists.replace.mutate(
            { playlistId, name: base.name, description: base.description, isPublic },
            { context: ifMatch ? { ifMatch } : {} },
          );
          utils.playlists.get.setData({ playlistId }, saved);
          void utils.playlists.list.invalidate();
          notify(`“${saved.name}” is now ${saved.isPublic ? 'public' : 'private'}.`);
          return;
        } catch (failure) {
          if (toProblem(failure).code !== 'PRECONDITION_FAILED' || attempt >= ATTEMPTS) throw failure;
          base = await utils.client.playlists.get.query({ playlistId });
        }
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="visibility">
      <button
        type="button"
        role="switch"
        aria-checked={playlist.isPublic}
        aria-busy={pending || undefined}
        aria-describedby={`visibility-${playlistId}`}
        className="switch"
        onClick={() => void toggle()}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        Public
      </button>{' '}
      <span id={`visibility-${playlistId}`} className="muted">
        {playlist.isPublic
          ? 'every signed-in user can see it'
          : mine
            ? 'only you can see it'
            : 'only its owner and admins can see it'}
      </span>
      {error !== null && <ErrorNotice error={error} />}
    </div>
  );
}
