'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { useArtistNames } from '@/components/catalogue/artists';
import { useDebounced } from '@/components/ui';
import { Combobox } from '@/components/ui/combobox';
import { isShortcut, onShortcutsChange, shortcutsOn } from '@/lib/shortcuts';
import { foundRecords, fullResultsHref, resultsStatus } from '@/lib/site-search';
import { trpc } from '@/lib/trpc';

/** How many of each kind are suggested. */
const PER_KIND = 5;
/** The longest text the finder takes. */
const MAX_TEXT = 100;

/**
 * The header's search of the whole catalogue (songs, artists, albums, playlists), for every
 * role: a combobox whose suggestions are grouped by kind (see Combobox for its keys). Enter on
 * a suggestion opens it; Enter with none active opens every matching song, best match first.
 * It asks nothing of the API until something is typed. `/` brings the focus to it from
 * anywhere but a text field or an open dialog. On a phone it folds behind a Search button
 * that reveals it across the header.
 */
export function SiteSearch() {
  const router = useRouter();
  const boxId = useId();
  const input = useRef<HTMLInputElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const [text, setText] = useState('');
  // Whether a phone shows the box (a desktop always does: the stylesheet decides).
  const [shown, setShown] = useState(false);
  const typed = text.trim();
  const term = useDebounced(typed, 180);
  const answer = trpc.search.find.useQuery(
    { q: term, limit: PER_KIND },
    { enabled: term !== '', staleTime: 30_000, placeholderData: (previous) => previous },
  );
  // While a changed text is on its way, the last suggestions stay (no flicker as one types).
  const artistNames = useArtistNames(answer.data?.songs?.flatMap((song) => song.artistIds) ?? []);
  const found = answer.data ? foundRecords(answer.data, artistNames) : [];
  const settled = term === typed && answer.data !== undefined && !answer.isPlaceholderData;
  const status =
    term === typed && answer.isError
      ? 'The search failed. Type again to retry.'
      : settled
        ? resultsStatus(found, typed)
        : 'Searching…';

  function open(href: string) {
    setText('');
    setShown(false);
    input.current?.blur();
    router.push(href);
  }

  // The placeholder names the key only while single-key shortcuts are on.
  const keys = useSyncExternalStore(onShortcutsChange, shortcutsOn, () => true);

  function reveal() {
    // Rendered shown before the focus moves: a hidden box cannot take it.
    flushSync(() => setShown(true));
    input.current?.focus();
  }

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcut(event, '/')) return;
      event.preventDefault();
      flushSync(() => setShown(true));
      input.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="search-toggle"
        aria-expanded={shown}
        aria-controls={boxId}
        onClick={() => (shown ? setShown(false) : reveal())}
      >
        Search
      </button>
      <search
        id={boxId}
        className={`site-search ${shown ? 'site-search-shown' : ''}`}
        onKeyDown={(event) => {
          // An Escape the box had no use for (nothing to close or clear): a phone folds it away.
          if (event.key === 'Escape' && !event.defaultPrevented && shown) {
            setShown(false);
            toggle.current?.focus();
          }
        }}
      >
        <Combobox
          label="Search the catalogue"
          listLabel="Search suggestions"
          text={text}
          onTextChange={setText}
          options={found.map(({ id, label, detail, group }) => ({ id, label, detail, group }))}
          status={status}
          onChoose={(id) => {
            const record = found.find((candidate) => candidate.id === id);
            if (record) open(record.href);
          }}
          onSubmit={(q) => open(fullResultsHref(q))}
          placeholder={keys ? 'Search… (press /)' : 'Search…'}
          maxLength={MAX_TEXT}
          inputRef={input}
        />
      </search>
    </>
  );
}
