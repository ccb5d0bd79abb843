'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { type ReactNode, useState } from 'react';
import { SessionProvider, useRoleChange } from '@/components/shell/session';
import { Shortcuts } from '@/components/shell/shortcuts';
import { SignInAgain } from '@/components/shell/sign-in-again';
import { SiteSearch } from '@/components/shell/site-search';
import { Button, ErrorNotice, Loading } from '@/components/ui';
import { type Role, trpc } from '@/lib/trpc';

const NAV: Array<{ href: string; label: string; roles: Role[] }> = [
  { href: '/songs', label: 'Songs', roles: ['admin', 'artist', 'user'] },
  { href: '/artists', label: 'Artists', roles: ['admin', 'artist', 'user'] },
  { href: '/artists/mine', label: 'My artist profile', roles: ['artist'] },
  { href: '/playlists', label: 'Playlists', roles: ['admin', 'artist', 'user'] },
  { href: '/users', label: 'Users', roles: ['admin'] },
  { href: '/activity', label: 'Activity', roles: ['admin'] },
];

const ROLE_NAMES: Record<Role, string> = { admin: 'Admin', artist: 'Artist', user: 'Listener' };

export function Shell({ children }: { children: ReactNode }) {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const [signingOut, setSigningOut] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const leaving = useRoleChange(me.data?.role);

  async function signOut() {
    setSigningOut(true);
    await fetch('/api/session', { method: 'DELETE' }).catch(() => undefined);
    queryClient.clear();
    window.location.assign('/sign-in');
  }

  if (me.isPending) {
    return (
      <main className="page">
        <Loading label="Opening the console…" />
      </main>
    );
  }
  if (me.isError) {
    return (
      <main className="page">
        <ErrorNotice error={me.error} />
        <Button onClick={() => me.refetch()}>Try again</Button>
      </main>
    );
  }
  const user = me.data;
  const nav = NAV.filter((item) => item.roles.includes(user.role));
  // The page's own entry: the longest address the path starts with (/artists/mine over /artists).
  const current = nav
    .filter((item) => pathname === item.href || pathname.startsWith(`${item.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0];
  return (
    <SessionProvider user={user}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        {/* The way home: every role's home page (counts, what changed lately, the ways on). */}
        <Link
          href="/"
          className="brand"
          aria-label="Music Catalogue: home"
          aria-current={pathname === '/' ? 'page' : undefined}
        >
          ♪ Music Catalogue
        </Link>
        <SiteSearch />
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <nav id="main-nav" className={`nav ${menuOpen ? 'nav-open' : ''}`} aria-label="Main">
          {nav.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              aria-current={item === current ? 'page' : undefined}
              onClick={() => setMenuOpen(false)}
            >
              {item.label}
            </Link>
          ))}
          <Link
            href="/account"
            className="phone-only"
            aria-current={pathname.startsWith('/account') ? 'page' : undefined}
            onClick={() => setMenuOpen(false)}
          >
            My account
          </Link>
        </nav>
        <div className="whoami">
          <span>
            <bdi className="whoami-name">{user.username}</bdi>{' '}
            <span className={`badge badge-${user.role}`}>{ROLE_NAMES[user.role]}</span>
          </span>
          <Link
            href="/account"
            className="desktop-only"
            aria-current={pathname.startsWith('/account') ? 'page' : undefined}
          >
            My account
          </Link>
          <Button variant="ghost" onClick={signOut} busy={signingOut}>
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" className="page">
        {leaving ? <Loading label="Your role has changed. Opening your start page…" /> : children}
      </main>
      <SignInAgain />
      <Shortcuts />
    </SessionProvider>
  );
}
