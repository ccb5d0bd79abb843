'use client';

import { listArtistsInput } from '@music/api-router/schemas';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Suspense, useEffect } from 'react';
import { ArtistForm } from '@/app/(console)/artists/_components/artist-form';
import { useOwnArtists } from '@/components/catalogue/artists';
import { PageHeader, RoleGate } from '@/components/shell/guard';
import { useMe } from '@/components/shell/session';
import { ErrorNotice, Loading, Notice, SearchBox } from '@/components/ui';
import { useCreateDialog } from '@/components/ui/dialog-form';
import { PageTitle } from '@/components/ui/page-title';
import { PAGE_SIZES, PagedTable, urlPaging } from '@/components/ui/paged-table';
import { trpc } from '@/lib/trpc';
import { param, useUrlState, useUrlText } from '@/lib/url-state';

/** Whether a value is one the artists.list procedure takes for `field`: its own schema decides. */
const takes = (field: 'search' | 'sort') => (value: string) =>
  listArtistsInput.shape[field].safeParse(value).success;

/** The list's view in the address: /artists?search=…&sort=…&page=…&limit=… (by name by default). */
const artistsQuery = {
  search: param.text({ valid: takes('search') }),
  sort: param.text({ fallback: 'name', valid: takes('sort') }),
  page: param.integer({ fallback: 1 }),
  limit: param.oneOf(PAGE_SIZES, 20),
};

export default function ArtistsPage() {
  const me = useMe();
  return (
    <>
      <PageTitle name={me.role === 'artist' ? 'My artist profiles' : 'Artists'} />
      <RoleGate roles={['admin', 'artist']}>
        {me.role === 'admin' ? (
          // The view is read from the address (useSearchParams), which a prerendered page reads in the browser.
          <Suspense fallback={<Loading />}>
            <AllArtists />
          </Suspense>
        ) : (
          <MyArtist />
        )}
      </RoleGate>
    </>
  );
}

/** An artist account goes straight to its profile (or chooses, if it manages several). */
function MyArtist() {
  const own = useOwnArtists();
  const router = useRouter();
  const only = own.data?.data.length === 1 ? own.data.data[0] : undefined;
  useEffect(() => {
    if (only) router.replace(`/artists/${only.id}`);
  }, [only, router]);
  if (own.isPending || only) return <Loading />;
  if (own.isError) return <ErrorNotice error={own.error} />;
  if (own.data.data.length === 0) {
    return <Notice>Your account is not linked to an artist yet. Ask an admin to link it.</Notice>;
  }
  return (
    <>
      <PageHeader title="My artist profiles" />
      <ul className="link-list">
        {own.data.data.map((artist) => (
          <li key={artist.id}>
            <Link href={`/artists/${artist.id}`}>{artist.name}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}

function AllArtists() {
  const [view, update] = useUrlState(artistsQuery);
  // Typing is one step of history (replace); a sort or a page is a step of its own.
  const search = useUrlText(view.search, (text) => update({ search: text, page: 1 }, 'replace'), 250);
  const router = useRouter();
  const list = trpc.artists.list.useQuery(
    {
      page: view.page,
      limit: view.limit,
      sort: view.sort,
      ...(view.search ? { search: view.search } : {}),
    },
    { placeholderData: (previous) => previous },
  );
  const paging = urlPaging(view, update);
  const create = useCreateDialog('New artist', (close) => (
    <ArtistForm artist={null} onSaved={(artist) => router.push(`/artists/${artist.id}`)} onCancel={close} />
  ));
  return (
    <>
      <PageHeader title="Artists">{create.button}</PageHeader>
      <div className="toolbar">
        <SearchBox label="Search artists by name" value={search.text} onChange={search.setText} />
      </div>
      <PagedTable
        query={list}
        empty={view.search ? `No artist matches “${view.search}”.` : 'No artists yet.'}
        columns={[{ label: 'Name', sort: 'name' }, 'Biography', 'Account']}
        sorting={{ value: view.sort, onSort: (sort) => update({ sort, page: 1 }) }}
        row={(artist) => (
          <>
            <td data-label="Name">
              <Link href={`/artists/${artist.id}`}>{artist.name}</Link>
            </td>
            <td data-label="Biography" className="clip">
              {artist.bio ?? <span className="muted">—</span>}
            </td>
            <td data-label="Account">{artist.userId ? 'Linked' : <span className="muted">None</span>}</td>
          </>
        )}
        paging={paging}
      />
      {create.dialog}
    </>
  );
}
