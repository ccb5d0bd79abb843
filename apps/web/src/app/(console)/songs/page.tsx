'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ArtistNames, ArtistPicker } from '@/components/artists';
import { useConfirmDelete } from '@/components/confirm-delete';
import { PageHeader } from '@/components/guard';
import { PagedTable, usePaging } from '@/components/paged-table';
import { useMe } from '@/components/session';
import { useSongAccess } from '@/components/song-access';
import { SongForm } from '@/components/song-form';
import {
  Button,
  Dialog,
  formatDuration,
  Loading,
  Notice,
  SearchBox,
  TextInput,
  useDebounced,
} from '@/components/ui';
import { type Song, trpc } from '@/lib/trpc';

const LIMIT = 20;

export default function SongsPage() {
  const me = useMe();
  const access = useSongAccess();
  const [search, setSearch] = useState('');
  const [genre, setGenre] = useState('');
  const [artistFilter, setArtistFilter] = useState<string[]>([]);
  const [scope, setScope] = useState<'mine' | 'all'>(me.role === 'artist' ? 'mine' : 'all');
  const paging = usePaging(LIMIT);
  const { reset } = paging;
  const [editing, setEditing] = useState<Song | 'new' | null>(null);
  const term = useDebounced(search.trim());
  const genreTerm = useDebounced(genre.trim());
  const mineId = scope === 'mine' ? access.ownArtists[0]?.id : undefined;
  const artistId = mineId ?? artistFilter[0];
  const waitingForOwn = scope === 'mine' && access.ownPending;
  const list = trpc.songs.list.useQuery(
    {
      page: paging.page,
      limit: LIMIT,
      ...(term ? { search: term } : {}),
      ...(genreTerm ? { genre: genreTerm } : {}),
      ...(artistId ? { artistId } : {}),
    },
    { placeholderData: (previous) => previous, enabled: !waitingForOwn },
  );
  const utils = trpc.useUtils();
  const remove = trpc.songs.delete.useMutation({ onSuccess: () => utils.songs.list.invalidate() });
  const confirmDelete = useConfirmDelete(remove, {
    title: 'Delete song',
    input: (song: Song) => ({ songId: song.id }),
    body: (song) => (
      <>
        Delete <strong>{song.title}</strong>? It leaves every playlist and artist it is in.
      </>
    ),
  });
  const noOwnArtist = me.role === 'artist' && !access.ownPending && access.ownArtists.length === 0;

  return (
    <>
      <PageHeader title={scope === 'mine' ? 'My songs' : 'Songs'}>
        {access.canCreate && (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New song
          </Button>
        )}
      </PageHeader>
      {noOwnArtist && <Notice>Your account is not linked to an artist yet. Ask an admin to link it.</Notice>}
      {me.role === 'artist' && (
        <fieldset className="tabs">
          <legend className="sr-only">Which songs</legend>
          <Button aria-pressed={scope === 'mine'} onClick={() => reset(() => setScope('mine'))}>
            My songs
          </Button>
          <Button aria-pressed={scope === 'all'} onClick={() => reset(() => setScope('all'))}>
            Whole catalogue
          </Button>
        </fieldset>
      )}
      <div className="toolbar">
        <SearchBox
          label="Search songs by title, album or artist"
          value={search}
          onChange={(v) => reset(() => setSearch(v))}
        />
        <TextInput
          label="Genre"
          value={genre}
          onChange={(e) => reset(() => setGenre(e.target.value))}
          maxLength={50}
        />
        {scope === 'all' && (
          <ArtistPicker
            label="Artist"
            single
            value={artistFilter}
            onChange={(ids) => reset(() => setArtistFilter(ids))}
          />
        )}
      </div>
      {waitingForOwn ? (
        <Loading />
      ) : (
        <PagedTable
          query={list}
          empty={term || genreTerm || artistId ? 'No songs match these filters.' : 'No songs yet.'}
          columns={['Title', 'Artists', 'Album', 'Genre', 'Length', 'Year', '']}
          row={(song) => (
            <>
              <td data-label="Title">
                <Link href={`/songs/${song.id}`}>{song.title}</Link>
              </td>
              <td data-label="Artists">
                <ArtistNames ids={song.artistIds} />
              </td>
              <td data-label="Album">{song.album ?? <span className="muted">—</span>}</td>
              <td data-label="Genre">{song.genre ?? <span className="muted">—</span>}</td>
              <td data-label="Length">{formatDuration(song.duration)}</td>
              <td data-label="Year">{song.releaseYear ?? <span className="muted">—</span>}</td>
              <td className="row-actions">
                {access.canEdit(song) && (
                  <>
                    <Button
                      variant="ghost"
                      onClick={() => setEditing(song)}
                      aria-label={`Edit ${song.title}`}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      onClick={() => confirmDelete.ask(song)}
                      aria-label={`Delete ${song.title}`}
                    >
                      Delete
                    </Button>
                  </>
                )}
              </td>
            </>
          )}
          paging={paging}
        />
      )}
      <Dialog
        open={editing !== null}
        title={editing === 'new' ? 'New song' : `Edit ${editing?.title ?? ''}`}
        onClose={() => setEditing(null)}
      >
        {editing !== null && (
          <SongForm
            song={editing === 'new' ? null : editing}
            defaultArtistIds={access.ownArtists.slice(0, 1).map((a) => a.id)}
            onSaved={() => setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        )}
      </Dialog>
      {confirmDelete.dialog}
    </>
  );
}
