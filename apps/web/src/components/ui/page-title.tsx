'use client';

import { useEffect, useState } from 'react';
import { toProblem } from '@/lib/errors';

const APP_NAME = 'Music Catalogue';

/**
 * The document title (browser tab, history, what a screen reader announces on navigation) of
 * the page that renders it: "`name` · Music Catalogue", or the console's name alone.
 *
 * React 19 hoists a rendered <title> into the head, before any title already there, and the
 * browser shows the first one: the newest page's wins, and when that page goes its title goes
 * with it. The console layout renders one without a name as the fallback while a page loads.
 * The root layout declares no metadata title on purpose: Next mounts its metadata again on every
 * navigation, and a title of its own mounted after a page's would hide the page's.
 */
export function PageTitle({ name }: { name?: string | undefined }) {
  return <title>{name ? `${name} · ${APP_NAME}` : APP_NAME}</title>;
}

/**
 * A record page's title: the record's name once it is loaded, "`kind` not found" for an unknown
 * id, `kind` for any other failure, and the console's fallback while it loads.
 */
export function RecordTitle<T>({
  query,
  kind,
  name,
}: {
  query: { isError: boolean; error: unknown; data: T | undefined };
  kind: string;
  name: (record: T) => string;
}) {
  if (query.data !== undefined) return <PageTitle name={name(query.data)} />;
  if (!query.isError) return null;
  return <PageTitle name={toProblem(query.error).code === 'NOT_FOUND' ? `${kind} not found` : kind} />;
}

/**
 * The path the browser asked for, as the not-found page names it. That page is prerendered once,
 * at build time, for no address in particular, so the address is read from the browser after
 * hydration (the server's HTML cannot know it); until then the sentence says "this address".
 */
export function RequestedPath() {
  const [path, setPath] = useState<string | null>(null);
  useEffect(() => setPath(window.location.pathname), []);
  return path === null ? 'this address' : <code>{path}</code>;
}
