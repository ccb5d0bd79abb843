'use client';

import { listArtistsInput } from '@music/api-router/schemas';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Suspense } from 'react';
import { ArtistForm } from '@/app/(console)/artists/_components/artist-form';
import { useUsernames } from '@/components/catalogue/usernames';
import { PageHeader } from '@/components/shell/guard';
import { useMe } from '@/components/shell/session';
import { Loading, SearchBox } from '@/components/ui';
import { useCreateDialog } from '@/components/ui/dialog-form';
import { PageTitle } from '@/components/ui/page-title';
import { PAGE_SIZES, PagedTable, urlPaging } from '@/components/ui/paged-table';
import { trpc } from '@/lib/trpc';
import { param, useUrlState, useUrlText } from '@/lib/url-state';

/** Whether a value is one the artists.list procedure takes for `field`: its own schema decides. */
const takes = (field: 'search' | 'sort') => (value: string) =>
  listArtistsInput.shape[field].safeParse(value).success;

/** The name shown for a managing account the answer left out (deleted since the list was read). */
const UNKNOWN_ACCOUNT = 'Unknown account';

/** The list's view in the address: /artists?search=…&sort=…&page=…&limit=… (by name by default). */
const artistsQuery = {
  search: param.text({ valid: takes('search') }),
  sort: param.text({ fallback: 'name', valid: takes('sort') }),
  page: param.integer({ fallback: 1 }),
  limit: param.oneOf(PAGE_SIZES, 20),
};

/**
 * The catalogue's artists, for every role: searchable, sortable, each linking to its page. Admins
 * also create artists here and see which account manages each.
 */
export default function ArtistsPage() {
  return (
    <>
      <PageTitle name="Artists" />
      {/* The view is read from the address (useSearchParams), which a prerendered page reads in the browser. */}
      <Suspense fallback={<Loading />}>
        <AllArtists />
      </Suspense>
    </>
  );
}

function AllArtists() {
  const me = useMe();
  const isAdmin = me.role === 'admin';
  const [view, update] = useUrlState(artistsQuery);
  // A typing is one step of history (see useUrlText); a sort or a page is a step of its own.
  const search = useUrlText(view.search, (text, how) => update({ search: text, page: 1 }, how), 250);
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
  // Who manages each artist on the page, in one call (admins only: the column is theirs).
  const managers = useUsernames(
    isAdmin ? (list.data?.data.flatMap((artist) => artist.userId ?? []) ?? []) : [],
    UNKNOWN_ACCOUNT,
  );
  const create = useCreateDialog('New artist', (close) => (
    <ArtistForm artist={null} onSaved={(artist) => router.push(`/artists/${artist.id}`)} onCancel={close} />
  ));
  return (
    <>
      <PageHeader title="Artists">{isAdmin && create.button}</PageHeader>
      <div className="toolbar">
        <SearchBox
          label="Search artists by name"
          value={search.text}
          onChange={search.setText}
          onBlur={search.endTyping}
        />
      </div>
      <PagedTable
        query={list}
        empty={view.search ? `No artist matches “${view.search}”.` : 'No artists yet.'}
        columns={[{ label: 'Name', sort: 'name' }, 'Biography', isAdmin && 'Managed by']}
        sorting={{ value: view.sort, onSort: (sort) => update({ sort, page: 1 }) }}
        row={(artist) => (
          <>
            <td data-label="Name">
              <Link href={`/artists/${artist.id}`}>{artist.name}</Link>
            </td>
            <td data-label="Biography" className="clip">
              {artist.bio ?? <span className="muted">—</span>}
            </td>
            {isAdmin && (
              <td data-label="Managed by">
                {artist.userId === me.id ? (
                  'You'
                ) : artist.userId ? (
                  <bdi>{managers.get(artist.userId) ?? '…'}</bdi>
                ) : (
                  <span className="muted">No account</span>
                )}
              </td>
            )}
          </>
        )}
        paging={paging}
      />
      {isAdmin && create.dialog}
    </>
  );
}
