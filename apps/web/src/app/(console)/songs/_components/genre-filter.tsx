'use client';

import { useEffect, useId } from 'react';
import { GenreOptions, useGenreSuggestions } from '@/app/(console)/songs/_components/genre-suggestions';
import { useUrlText } from '@/lib/url-state';

/**
 * The genre filter: a text box that suggests the genres in use (GET /genres, matched as one
 * types, each with its number of songs) through a <datalist>, the browser's own accessible
 * combobox. The filter is an exact match (letter case aside), so it applies once the text names
 * a suggested genre (chosen, or typed in full), on Enter, when the box is left, or when emptied;
 * half a name does not empty the list meanwhile. Suggestions are asked for only once the box is
 * used, so the songs list costs no call for them until then.
 */
export function GenreFilter({ value, onChange }: { value: string; onChange: (genre: string) => void }) {
  const id = useId();
  const { text, setText, commitNow } = useUrlText(value, onChange);
  const genres = useGenreSuggestions(text);
  const typed = text.trim();
  const named = genres.named(typed);
  // A genre chosen from the list, or typed in full (its suggestion may arrive a moment later):
  // the filter follows at once, in the genre's own spelling. commitNow ignores a repeat.
  useEffect(() => {
    if (named && named.name.toLowerCase() !== value.toLowerCase()) commitNow(named.name);
  });
  /** Enter, or leaving the box: whatever it says is the filter (letter case aside). */
  function settle() {
    if (typed.toLowerCase() !== value.toLowerCase()) commitNow(named?.name ?? typed);
  }

  return (
    <div className="field">
      <label htmlFor={id}>Genre</label>
      <input
        id={id}
        type="text"
        list={`${id}-genres`}
        autoComplete="off"
        value={text}
        maxLength={50}
        aria-describedby={`${id}-hint`}
        onFocus={genres.use}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === '') commitNow('');
        }}
        onBlur={settle}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            settle();
          }
        }}
      />
      <p className="sr-only" id={`${id}-hint`}>
        Suggests the genres in use as you type; choose one or press Enter.
      </p>
      <GenreOptions id={`${id}-genres`} genres={genres.suggestions} />
    </div>
  );
}
