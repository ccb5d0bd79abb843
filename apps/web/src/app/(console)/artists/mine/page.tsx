'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { useOwnArtists } from '@/components/catalogue/artists';
import { PageHeader, RoleGate } from '@/components/shell/guard';
import { ErrorNotice, Loading, Notice } from '@/components/ui';
import { PageTitle } from '@/components/ui/page-title';

/** "My artist profile" of an artist account: its profile, or a choice when it manages several. */
export default function MyArtistPage() {
  return (
    <>
      <PageTitle name="My artist profiles" />
      <RoleGate roles={['artist']}>
        <MyArtist />
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
