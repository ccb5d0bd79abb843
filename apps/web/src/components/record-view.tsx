'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { ErrorNotice, Loading } from '@/components/ui';

/** One record's page: loading, or why it cannot be shown with a way back, or the record. */
export function RecordView<T>({
  query,
  back,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  back: { href: string; label: string };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError || query.data === undefined) {
    return (
      <>
        <ErrorNotice error={query.error} />
        <Link href={back.href}>{back.label}</Link>
      </>
    );
  }
  return <>{children(query.data)}</>;
}
