import type { Metadata, Viewport } from 'next';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { THEME_COOKIE, themeOf } from '@/lib/theme';
import { Providers } from './providers';
import './globals.css';

// No title here: every page renders its own <PageTitle> (components/page-title.tsx says why).
export const metadata: Metadata = {
  description: 'The console of the music catalogue service',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry that request's CSP nonce (src/proxy.ts),
  // which a page prerendered at build time could not.
  await connection();
  // A theme chosen with the switch, from its cookie: in the first paint, so nothing flashes.
  // Without one the stylesheet follows the system (prefers-color-scheme).
  const theme = themeOf((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme === 'system' ? undefined : theme}>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
