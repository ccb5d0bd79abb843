'use client';

import Link from 'next/link';
import { type MouseEvent, useRef } from 'react';
import { useFreshSession } from '@/components/shell/session';
import { isUnauthorized } from '@/lib/errors';
import type { Role } from '@/lib/trpc';
import './imports.css';

const FORMATS = [
  { format: 'csv', label: 'Export CSV' },
  { format: 'ndjson', label: 'Export NDJSON' },
] as const;

/**
 * A download of the whole catalogue: a plain link to the console's /api/songs/export, which the
 * browser saves under the API's name for the file. A plain click readies the session first (its
 * access cookie may have lapsed while the page stood open, and a download cannot refresh it),
 * then follows the link; a click with a modifier is the browser's own.
 */
function ExportLink({ format, label }: (typeof FORMATS)[number]) {
  const fresh = useFreshSession();
  const readied = useRef(false);
  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (readied.current) {
      readied.current = false;
      return;
    }
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const link = event.currentTarget;
    void fresh().then((error) => {
      // An ended session is on its way to sign-in; anything else, the download itself will say.
      if (isUnauthorized(error)) return;
      readied.current = true;
      link.click();
    });
  }
  return (
    <a className="btn btn-secondary" href={`/api/songs/export?format=${format}`} download onClick={onClick}>
      {label}
    </a>
  );
}

/**
 * The songs list's files: the whole catalogue exported as CSV or NDJSON (anyone signed in), and
 * the way to the import (admins and artist accounts, the ones the API lets import).
 */
export function SongFiles({ role }: { role: Role }) {
  return (
    <div className="song-files">
      {(role === 'admin' || role === 'artist') && (
        <Link className="btn btn-secondary" href="/songs/import">
          Import songs
        </Link>
      )}
      <fieldset className="song-files">
        <legend className="sr-only">Export the whole catalogue</legend>
        {FORMATS.map((choice) => (
          <ExportLink key={choice.format} {...choice} />
        ))}
      </fieldset>
    </div>
  );
}
