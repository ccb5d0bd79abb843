'use client';

import { listSongsInput } from '@music/api-router/schemas';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Suspense, useMemo, useState } from 'react';
import { useAddToPlaylist } from '@/app/(console)/songs/_components/add-to-playlist';
import { useSongBulk } from '@/app/(console)/songs/_components/bulk-actions';
import { DidYouMean } from '@/app/(console)/songs/_components/did-you-mean';
import { GenreFilter } from '@/app/(console)/songs/_components/genre-filter';
import { useSongAccess } from '@/app/(console)/songs/_components/song-access';
import { SongFiles } from '@/app/(console)/songs/_components/song-files';
import { SongForm } from '@/app/(console)/songs/_components/song-form';
import { ArtistNameList, ArtistPicker, useArtistNames } from '@/components/catalogue/artists';
import { PageHeader } from '@/components/shell/guard';
import { useMe } from '@/components/shell/session';
import { Button, formatDate, formatDuration, Loading, Notice, SearchBox } from '@/components/ui';
import { useConfirmDelete } from '@/components/ui/confirm-delete';
import { Dialog } from '@/components/ui/dialog';
import { PageTitle } from '@/components/ui/page-title';
import { PAGE_SIZES, PagedTable, urlPaging } from '@/components/ui/paged-table';
import { type SortChoice, SortMenu } from '@/components/ui/sort-menu';
import { RELEVANCE } from '@/lib/site-search';
import { type Role, type Song, trpc } from '@/lib/trpc';
import { param, useUrlState, useUrlText } from '@/lib/url-state';

/** Whether a value is one the songs.list procedure takes for `field`: its own schema decides. */
const takes = (field: 'search' | 'genre' | 'artistId' | 'sort') => (value: string) =>
  listSongsInput.shape[field].safeParse(value).success;

/** The default order, and the one a list leaves `relevance` for when its search is emptied. */
const BY_TITLE = 'title';

/** The orders of the sort menu; with a search, "Best match" (`relevance`) comes first. */
const ORDERS: SortChoice[] = [
  { value: 'title', label: 'Title, A to Z' },
  { value: '-title', label: 'Title, Z to A' },
  { value: 'album', label: 'Album, A to Z' },
  { value: '-album', label: 'Album, Z to A' },
  { value: 'duration', label: 'Shortest first' },
  { value: '-duration', label: 'Longest first' },
  { value: '-releaseYear', label: 'Newest release first' },
  { value: 'releaseYear', label: 'Oldest release first' },
  { value: '-createdAt', label: 'Newest added first' },
  { value: 'createdAt', label: 'Oldest added first' },
];
const SEARCH_ORDERS: SortChoice[] = [{ value: RELEVANCE, label: 'Best match' }, ...ORDERS];

/**
 * The list's view in the address: /songs?search=…&genre=…&artist=…&sort=…&page=…&limit=…&tab=…
 * An artist account starts on its own songs (tab `mine`), everyone else on the whole catalogue.
 */
function songsQuery(role: Role) {
  return {
    search: param.text({ valid: takes('search') }),
    genre: param.text({ valid: takes('genre') }),
    artist: param.text({ valid: takes('artistId') }),
    sort: param.text({ fallback: BY_TITLE, valid: takes('sort') }),
    page: param.integer({ fallback: 1 }),
    limit: param.oneOf(PAGE_SIZES, 20),
    tab: param.oneOf(['mine', 'all'], role === 'artist' ? 'mine' : 'all'),
  };
}

export default function SongsPage() {
  // The view is read from the address (useSearchParams), which a prerendered page reads in the browser.
  return (
    <Suspense fallback={<Loading />}>
      <Songs />
    </Suspense>
  );
}

function Songs() {
  const me = useMe();
  const access = useSongAccess();
  const schema = useMemo(() => songsQuery(me.role), [me.role]);
  const [view, update] = useUrlState(schema);
  // A typing is one step of history (see useUrlText); a filter, a page, a sort, a tab or an artist is a step of its own.
  // Best match ranks a search's matches: without a search (emptied, or a hand-edited address)
  // the list is by title, as the API takes `relevance` only with a search.
  const sort = view.sort === RELEVANCE && !view.search ? BY_TITLE : view.sort;
  const search = useUrlText(
    view.search,
    (text, how) =>
      update({ search: text, page: 1, ...(!text && view.sort === RELEVANCE ? { sort: BY_TITLE } : {}) }, how),
    250,
  );
  const [editing, setEditing] = useState<Song | 'new' | null>(null);
  const router = useRouter();
  const scope = me.role === 'artist' ? view.tab : 'all';
  const mineId = scope === 'mine' ? access.ownArtists[0]?.id : undefined;
  const artistId = mineId ?? (scope === 'all' && view.artist ? view.artist : undefined);
  const waitingForOwn = scope === 'mine' && access.ownPending;
  const noOwnArtist = me.role === 'artist' && !access.ownPending && access.ownArtists.length === 0;
  // "My songs" of an account no artist is linked to: none (not the whole catalogue, unfiltered).
  const noneOfMine = scope === 'mine' && noOwnArtist;
  const list = trpc.songs.list.useQuery(
    {
      page: view.page,
      limit: view.limit,
      sort,
      ...(view.search ? { search: view.search } : {}),
      ...(view.genre ? { genre: view.genre } : {}),
      ...(artistId ? { artistId } : {}),
    },
    { placeholderData: (previous) => previous, enabled: !waitingForOwn && !noneOfMine },
  );
  const paging = urlPaging(view, update);
  // Every artist on the page in one call.
  const artistNames = useArtistNames(list.data?.data.flatMap((song) => song.artistIds) ?? []);
  const utils = trpc.useUtils();
  const remove = trpc.songs.delete.useMutation({ onSuccess: () => utils.songs.list.invalidate() });
  const confirmDelete = useConfirmDelete(remove, {
    title: 'Delete song',
    input: (song: Song) => ({ songId: song.id }),
    body: (song) => (
      <>
        Delete{' '}
        <strong>
          <bdi>{song.title}</bdi>
        </strong>
        ? It leaves every playlist and artist it is in.
      </>
    ),
  });
  const addToPlaylist = useAddToPlaylist();
  const bulk = useSongBulk({ canEdit: access.canEdit, addToPlaylist });
  const heading = scope === 'mine' ? 'My songs' : 'Songs';
  const filtered = view.search || view.genre || artistId;
  // What "Clear filters" clears (not the artist of "My songs": that is the tab).
  const chosenFilters = view.search || view.genre || (scope === 'all' && view.artist);
  // A search alone that found nothing may hold a typo the finder forgives.
  const searchOnly = view.search !== '' && !view.genre && !artistId;

  return (
    <>
      <PageTitle name={heading} />
      <PageHeader title={heading}>
        {access.canCreate && (
          <Button variant="primary" onClick={() => setEditing('new')} data-shortcut="new">
            New song
          </Button>
        )}
        <SongFiles role={me.role} />
      </PageHeader>
      {noOwnArtist && <Notice>Your account is not linked to an artist yet. Ask an admin to link it.</Notice>}
      {me.role === 'artist' && (
        <fieldset className="tabs">
          <legend className="sr-only">Which songs</legend>
          <Button
            aria-pressed={scope === 'mine'}
            onClick={() => update({ tab: 'mine', artist: '', page: 1 })}
          >
            My songs
          </Button>
          <Button aria-pressed={scope === 'all'} onClick={() => update({ tab: 'all', page: 1 })}>
            Whole catalogue
          </Button>
        </fieldset>
      )}
      {!noneOfMine && (
        <div className="toolbar">
          <SearchBox
            label="Search songs by title, album or artist"
            value={search.text}
            onChange={search.setText}
            onBlur={search.endTyping}
          />
          <GenreFilter value={view.genre} onChange={(genre) => update({ genre, page: 1 })} />
          {scope === 'all' && (
            <ArtistPicker
              label="Artist"
              single
              value={view.artist ? [view.artist] : []}
              onChange={(ids) => update({ artist: ids[0] ?? '', page: 1 })}
            />
          )}
          <SortMenu
            value={sort}
            choices={view.search ? SEARCH_ORDERS : ORDERS}
            onChange={(next) => update({ sort: next, page: 1 })}
          />
          {chosenFilters && (
            <Button
              variant="ghost"
              onClick={() => {
                search.setText('');
                update({
                  search: '',
                  genre: '',
                  artist: '',
                  page: 1,
                  sort: sort === RELEVANCE ? BY_TITLE : sort,
                });
              }}
            >
              Clear filters
            </Button>
          )}
        </div>
      )}
      {waitingForOwn ? (
        <Loading />
      ) : noneOfMine ? (
        <p>Your songs are listed here once your account is linked to an artist.</p>
      ) : (
        <>
          {bulk.bar}
          <PagedTable
            query={list}
            selection={bulk.selection}
            rowClass={bulk.rowClass}
            empty={
              filtered ? (
                <>
                  No songs match these filters.
                  {searchOnly && <DidYouMean search={view.search} />}
                </>
              ) : (
                'No songs yet.'
              )
            }
            columns={[
              { label: 'Title', sort: 'title' },
              'Artists',
              { label: 'Album', sort: 'album' },
              'Genre',
              { label: 'Length', sort: 'duration' },
              { label: 'Year', sort: 'releaseYear' },
              { label: 'Added', sort: 'createdAt' },
              '',
            ]}
            sorting={{ value: sort, onSort: (next) => update({ sort: next, page: 1 }) }}
            row={(song) => (
              <>
                <td data-label="Title">
                  <Link href={`/songs/${song.id}`}>{song.title}</Link>
                </td>
                <td data-label="Artists">
                  <ArtistNameList ids={song.artistIds} names={artistNames} />
                </td>
                <td data-label="Album">{song.album ?? <span className="muted">—</span>}</td>
                <td data-label="Genre">{song.genre ?? <span className="muted">—</span>}</td>
                <td data-label="Length">{formatDuration(song.duration)}</td>
                <td data-label="Year">{song.releaseYear ?? <span className="muted">—</span>}</td>
                <td data-label="Added">{formatDate(song.createdAt)}</td>
                <td className="row-actions">
                  {addToPlaylist.button(song, { inRow: true })}
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
        </>
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
            onSaved={(saved) => {
              // A new song opens its page, as a new artist or playlist does; an edit stays on the list.
              if (editing === 'new') router.push(`/songs/${saved.id}`);
              setEditing(null);
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Dialog>
      {confirmDelete.dialog}
      {addToPlaylist.dialog}
      {bulk.dialog}
    </>
  );
}
