'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useCreateDialog } from '@/components/dialog-form';
import { PageHeader } from '@/components/guard';
import { PageTitle } from '@/components/page-title';
import { PagedTable, usePaging } from '@/components/paged-table';
import { PlaylistForm } from '@/components/playlist-form';
import { Owner } from '@/components/playlist-owner';
import { useMe } from '@/components/session';
import { Button, formatDate } from '@/components/ui';
import { trpc } from '@/lib/trpc';

const LIMIT = 20;
type Scope = 'mine' | 'public' | 'all';

export default function PlaylistsPage() {
  const me = useMe();
  const router = useRouter();
  const [scope, setScope] = useState<Scope>(me.role === 'admin' ? 'all' : 'mine');
  const paging = usePaging(LIMIT);
  const input =
    scope === 'mine' ? { userId: me.id } : scope === 'public' ? { visibility: 'public' as const } : {};
  const list = trpc.playlists.list.useQuery(
    { page: paging.page, limit: LIMIT, ...input },
    { placeholderData: (p) => p },
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
          <Button
            key={value}
            aria-pressed={scope === value}
            onClick={() => paging.reset(() => setScope(value))}
          >
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
        columns={['Name', 'Songs', 'Visibility', scope !== 'mine' && 'Owner', 'Updated']}
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
                <Owner playlist={playlist} />
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
