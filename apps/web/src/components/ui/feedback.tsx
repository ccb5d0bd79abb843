'use client';

import type { ReactNode } from 'react';
import { describeError } from '@/lib/errors';

/** An error in words, announced to screen readers. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong>{title} </strong>}
      {typeof error === 'string' ? error : describeError(error)}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' }) {
  return (
    <div className={`notice notice-${tone}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/**
 * The states of a query: loading, failed (the error, then `failed` if given), empty (when
 * `isEmpty` says so, showing `empty`), or the data.
 */
export function QueryView<T>({
  query,
  isEmpty,
  empty,
  failed,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  failed?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError || query.data === undefined) {
    return (
      <>
        <ErrorNotice error={query.error} />
        {failed}
      </>
    );
  }
  if (isEmpty?.(query.data)) return <Empty>{empty}</Empty>;
  return <>{children(query.data)}</>;
}
