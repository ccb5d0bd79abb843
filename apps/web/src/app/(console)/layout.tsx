import { HydrationBoundary } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Shell } from '@/components/shell/shell';
import { PageTitle } from '@/components/ui/page-title';
import { ToastProvider } from '@/components/ui/toast';
import { prefetched } from '@/server/prefetch';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  // Who is signed in, fetched on the server: the shell opens on the page, not on "Opening the
  // console…" (the browser asks again only when the session needs refreshing).
  const state = await prefetched((api) => api.auth.me.prefetch());
  return (
    <>
      {/* The title while the console opens and a page loads; each page's own comes before it. */}
      <PageTitle />
      {/* Around the shell, so a confirmation outlives the page that sent it (a deleted record's). */}
      <ToastProvider>
        <HydrationBoundary state={state}>
          <Shell>{children}</Shell>
        </HydrationBoundary>
      </ToastProvider>
    </>
  );
}
