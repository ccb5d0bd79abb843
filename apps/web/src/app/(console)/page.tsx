'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { useMe } from '@/components/shell/session';
import { Loading } from '@/components/ui';

/** Each role starts where its work is. */
export default function Home() {
  const me = useMe();
  const router = useRouter();
  useEffect(() => {
    router.replace(me.role === 'user' ? '/playlists' : '/songs');
  }, [me.role, router]);
  return <Loading />;
}
