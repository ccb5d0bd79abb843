import type { ReactNode } from 'react';
import { Shell } from '@/components/shell/shell';
import { PageTitle } from '@/components/ui/page-title';
import { ToastProvider } from '@/components/ui/toast';
import { Prefetched } from '@/server/prefetch';

export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <>
      {/* The title while the console opens and a page loads; each page's own comes before it. */}
      <PageTitle />
      {/* Around the shell, so a confirmation outlives the page that sent it (a deleted record's). */}
      <ToastProvider>
        {/* Who is signed in, fetched on the server: the shell opens on the page, not on "Opening
            the console…" (the browser asks again only when the session needs refreshing). */}
        <Prefetched work={(api) => api.auth.me.prefetch()}>
          <Shell>{children}</Shell>
        </Prefetched>
      </ToastProvider>
    </>
  );
}
