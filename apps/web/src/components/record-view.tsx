'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { QueryView } from '@/components/ui';

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
  return (
    <QueryView query={query} failed={<Link href={back.href}>{back.label}</Link>}>
      {children}
    </QueryView>
  );
}
