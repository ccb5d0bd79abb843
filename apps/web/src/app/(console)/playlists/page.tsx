'use client';

import { listPlaylistsInput } from '@music/api-router/schemas';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Suspense, useMemo } from 'react';
import { PlaylistForm } from '@/app/(console)/playlists/_components/playlist-form';
import { OwnerName, useOwnerNames } from '@/app/(console)/playlists/_components/playlist-owner';
import { PageHeader } from '@/components/shell/guard';
import { useMe } from '@/components/shell/session';
import { Button, formatDate, Loading } from '@/components/ui';
import { useCreateDialog } from '@/components/ui/dialog-form';
import { PageTitle } from '@/components/ui/page-title';
import { PAGE_SIZES, PagedTable, urlPaging } from '@/components/ui/paged-table';
import { type Role, trpc } from '@/lib/trpc';
import { param, useUrlState } from '@/lib/url-state';

type Scope = 'mine' | 'public' | 'all';

/** Whether a value is one the playlists.list procedure takes for `sort`: its own schema decides. */
const takesSort = (value: string) => listPlaylistsInput.shape.sort.safeParse(value).success;

/**
 * The list's view in the address: /playlists?tab=…&sort=…&page=…&limit=… (oldest first by
 * default). An admin starts on every playlist (tab `all`, theirs alone), everyone else on their own.
 */
function playlistsQuery(role: Role) {
  const admin = role === 'admin';
  return {
    tab: param.oneOf<Scope>(admin ? ['mine', 'public', 'all'] : ['mine', 'public'], admin ? 'all' : 'mine'),
    sort: param.text({ fallback: 'createdAt', valid: takesSort }),
    page: param.integer({ fallback: 1 }),
    limit: param.oneOf(PAGE_SIZES, 20),
  };
}

export default function PlaylistsPage() {
  // The view is read from the address (useSearchParams), which a prerendered page reads in the browser.
  return (
    <Suspense fallback={<Loading />}>
      <Playlists />
    </Suspense>
  );
}

function Playlists() {
  const me = useMe();
  const router = useRouter();
  const schema = useMemo(() => playlistsQuery(me.role), [me.role]);
  // A tab, a sort or a page is a step of history of its own.
  const [view, update] = useUrlState(schema);
  const scope = view.tab;
  const input =
    scope === 'mine' ? { userId: me.id } : scope === 'public' ? { visibility: 'public' as const } : {};
  const list = trpc.playlists.list.useQuery(
    { page: view.page, limit: view.limit, sort: view.sort, ...input },
    { placeholderData: (p) => p },
  );
  const paging = urlPaging(view, update);
  // Every owner on the page in one call (none on your own playlists: they are all yours).
  const ownerNames = useOwnerNames(
    scope === 'mine' ? [] : (list.data?.data.map((playlist) => playlist.userId) ?? []),
  );
  const create = useCreateDialog('New playlist', (close) => (
    <PlaylistForm
      playlist={null}
      onSaved={(playlist) => router.push(`/playlists/${playlist.id}`)}
      onCancel={close}
    />
  ));
  const tabs: Array<[Scope, string]> = [
    ['mine', 'My playlists'],
    ['public', 'Public playlists'],
    ...(me.role === 'admin' ? ([['all', 'All playlists']] as Array<[Scope, string]>) : []),
  ];

  return (
    <>
      <PageTitle name="Playlists" />
      <PageHeader title="Playlists">{create.button}</PageHeader>
      <fieldset className="tabs">
        <legend className="sr-only">Which playlists</legend>
        {tabs.map(([value, label]) => (
          <Button key={value} aria-pressed={scope === value} onClick={() => update({ tab: value, page: 1 })}>
            {label}
          </Button>
        ))}
      </fieldset>
      <PagedTable
        query={list}
        empty={
          scope === 'mine'
            ? 'You have no playlists yet. Create one to start collecting songs.'
            : 'No playlists here yet.'
        }
        columns={[
          { label: 'Name', sort: 'name' },
          'Songs',
          'Visibility',
          scope !== 'mine' && 'Owner',
          'Updated',
        ]}
        sorting={{ value: view.sort, onSort: (sort) => update({ sort, page: 1 }) }}
        row={(playlist) => (
          <>
            <td data-label="Name">
              <Link href={`/playlists/${playlist.id}`}>{playlist.name}</Link>
            </td>
            <td data-label="Songs">{playlist.songCount}</td>
            <td data-label="Visibility">
              <span className={`badge ${playlist.isPublic ? 'badge-public' : ''}`}>
                {playlist.isPublic ? 'Public' : 'Private'}
              </span>
            </td>
            {scope !== 'mine' && (
              <td data-label="Owner">
                <OwnerName userId={playlist.userId} names={ownerNames} />
              </td>
            )}
            <td data-label="Updated">{formatDate(playlist.updatedAt)}</td>
          </>
        )}
        paging={paging}
      />
      {create.dialog}
    </>
  );
}
