'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { PageHeader } from '@/components/guard';
import { PagedTable } from '@/components/paged-table';
import { PlaylistForm } from '@/components/playlist-form';
import { Owner } from '@/components/playlist-owner';
import { useMe } from '@/components/session';
import { Button, Dialog, formatDate } from '@/components/ui';
import { trpc } from '@/lib/trpc';

const LIMIT = 20;
type Scope = 'mine' | 'public' | 'all';

export default function PlaylistsPage() {
  const me = useMe();
  const router = useRouter();
  const [scope, setScope] = useState<Scope>(me.role === 'admin' ? 'all' : 'mine');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const input =
    scope === 'mine' ? { userId: me.id } : scope === 'public' ? { visibility: 'public' as const } : {};
  const list = trpc.playlists.list.useQuery({ page, limit: LIMIT, ...input }, { placeholderData: (p) => p });
  const tabs: Array<[Scope, string]> = [
    ['mine', 'My playlists'],
    ['public', 'Public playlists'],
    ...(me.role === 'admin' ? ([['all', 'All playlists']] as Array<[Scope, string]>) : []),
  ];

  return (
    <>
      <PageHeader title="Playlists">
        <Button variant="primary" onClick={() => setCreating(true)}>
          New playlist
        </Button>
      </PageHeader>
      <fieldset className="tabs">
        <legend className="sr-only">Which playlists</legend>
        {tabs.map(([value, label]) => (
          <Button
            key={value}
            aria-pressed={scope === value}
            onClick={() => {
              setScope(value);
              setPage(1);
            }}
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
        page={page}
        limit={LIMIT}
        onPage={setPage}
      />
      <Dialog open={creating} title="New playlist" onClose={() => setCreating(false)}>
        {creating && (
          <PlaylistForm
            playlist={null}
            onSaved={(playlist) => router.push(`/playlists/${playlist.id}`)}
            onCancel={() => setCreating(false)}
          />
        )}
      </Dialog>
    </>
  );
}
