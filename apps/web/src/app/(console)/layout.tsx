import type { ReactNode } from 'react';
import { Shell } from '@/components/shell/shell';
import { PageTitle } from '@/components/ui/page-title';
import { ToastProvider } from '@/components/ui/toast';

export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <>
      {/* The title while the console opens and a page loads; each page's own comes before it. */}
      <PageTitle />
      {/* Around the shell, so a confirmation outlives the page that sent it (a deleted record's). */}
      <ToastProvider>
        <Shell>{children}</Shell>
      </ToastProvider>
    </>
  );
}
