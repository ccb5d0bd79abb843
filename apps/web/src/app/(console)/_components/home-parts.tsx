'use client';

import { pageMode } from '@music/api-router/schemas';
import Link from 'next/link';
import type { ReactNode } from 'react';

/** A list answer's count: its `total` (the console reads lists by page), or null until it comes. */
export function totalOf(query: {
  data?: { pagination: { limit: number; total: number } | { limit: number; nextCursor: string | null } };
}): number | null {
  return query.data ? pageMode(query.data.pagination).total : null;
}

/** "1 song", "12 songs", "1,234 songs". */
export function counted(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/**
 * A way on, with what is there: a card that is a link, its figure (`count`) above its words, or
 * its words alone (no `count`). Until a figure comes (`null`), a placeholder of its size holds
 * its place, so the page does not shift.
 */
export function CountCard({
  href,
  count,
  one,
  many,
  hint,
}: {
  href: string;
  count?: number | null;
  one: string;
  many: string;
  hint?: string;
}) {
  return (
    <li>
      <Link href={href} className="count-card">
        {count !== undefined && (
          <span className="count-figure" aria-hidden={count === null || undefined}>
            {count === null ? '…' : count.toLocaleString('en')}
          </span>
        )}
        <span className="count-words">{count === 1 ? one : many}</span>
        {hint && <span className="count-hint">{hint}</span>}
      </Link>
    </li>
  );
}

/** A section of the home page: its heading, its rows, and where the rest of them are. */
export function HomeSection({
  title,
  more,
  children,
}: {
  title: string;
  more?: { href: string; label: string };
  children: ReactNode;
}) {
  return (
    <section className="home-section" aria-label={title}>
      <h2>{title}</h2>
      {children}
      {more && (
        <p className="home-more">
          <Link href={more.href}>{more.label}</Link>
        </p>
      )}
    </section>
  );
}

/** Songs as short rows: each title a link, then `detail` (its album and year, its artists), if any. */
export function SongRows<S extends { id: string; title: string }>({
  songs,
  detail,
}: {
  songs: S[];
  detail: (song: S) => string;
}) {
  return (
    <ul className="rows">
      {songs.map((song) => {
        const more = detail(song);
        return (
          <li key={song.id} className="row">
            <span className="grow">
              <Link href={`/songs/${song.id}`}>
                <bdi>{song.title}</bdi>
              </Link>
              {more && (
                <span className="muted">
                  {' '}
                  · <bdi>{more}</bdi>
                </span>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
