'use client';

import Link from 'next/link';
import { useMe } from '@/components/shell/session';
import { historyHref, type TargetType } from '@/lib/activity';

/**
 * A record's history for admins: a link to the Activity page filtered to this record (nothing for
 * anyone else, who may not read the log).
 */
export function HistoryLink({ type, id }: { type: TargetType; id: string }) {
  const me = useMe();
  if (me.role !== 'admin') return null;
  return (
    <Link className="btn btn-secondary" href={historyHref(type, id)}>
      History
    </Link>
  );
}
