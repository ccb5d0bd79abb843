'use client';

import Link from 'next/link';
import { Fragment, type ReactNode } from 'react';
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

/** A value the record does not have, shown as the console's tables show it. */
export function NoValue() {
  return <span className="muted">—</span>;
}

/**
 * A record's facts as a list of terms: each label with its value, or a dash when the record has
 * none (null or empty text), so every reader sees every field, whether or not they may edit it.
 */
export function Facts({ facts }: { facts: Array<[label: string, value: ReactNode]> }) {
  return (
    <dl className="facts">
      {facts.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? <NoValue /> : value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
