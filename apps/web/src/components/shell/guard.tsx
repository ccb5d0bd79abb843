'use client';

import type { ReactNode } from 'react';
import { useMe } from '@/components/shell/session';
import type { Role } from '@/lib/trpc';

/** Shapes the page by role; the API enforces the same rules on every call regardless. */
export function RoleGate({ roles, children }: { roles: Role[]; children: ReactNode }) {
  const me = useMe();
  if (!roles.includes(me.role)) {
    return (
      <div className="notice notice-error" role="alert">
        This page is for {roles.join(' and ')} accounts. Use the menu to find your own work.
      </div>
    );
  }
  return <>{children}</>;
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}
