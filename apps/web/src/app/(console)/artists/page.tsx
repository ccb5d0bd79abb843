'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { ArtistForm } from '@/components/artist-form';
import { useOwnArtists } from '@/components/artists';
import { useCreateDialog } from '@/components/dialog-form';
import { PageHeader, RoleGate } from '@/components/guard';
import { PageTitle } from '@/components/page-title';
import { PagedTable, usePaging } from '@/components/paged-table';
import { useMe } from '@/components/session';
import { ErrorNotice, Loading, Notice, SearchBox, useDebounced } from '@/components/ui';
import { trpc } from '@/lib/trpc';

const LIMIT = 20;

export default function ArtistsPage() {
  const me = useMe();
  return (
    <>
      <PageTitle name={me.role === 'artist' ? 'My artist profiles' : 'Artists'} />
      <RoleGate roles={['admin', 'artist']}>{me.role === 'admin' ? <AllArtists /> : <MyArtist />}</RoleGate>
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
  const [search, setSearch] = useState('');
  const paging = usePaging(LIMIT);
  const router = useRouter();
  const term = useDebounced(search.trim());
  const list = trpc.artists.list.useQuery(
    { page: paging.page, limit: LIMIT, ...(term ? { search: term } : {}) },
    { placeholderData: (previous) => previous },
  );
  const create = useCreateDialog('New artist', (close) => (
    <ArtistForm artist={null} onSaved={(artist) => router.push(`/artists/${artist.id}`)} onCancel={close} />
  ));
  return (
    <>
      <PageHeader title="Artists">{create.button}</PageHeader>
      <div className="toolbar">
        <SearchBox
          label="Search artists by name"
          value={search}
          onChange={(v) => paging.reset(() => setSearch(v))}
        />
      </div>
      <PagedTable
        query={list}
        empty={term ? `No artist matches “${term}”.` : 'No artists yet.'}
        columns={['Name', 'Biography', 'Account']}
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
