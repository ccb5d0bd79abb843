'use client';

import { useId, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui';
import { Dialog } from '@/components/ui/dialog';
import { isShortcut, newButton, onShortcutsChange, setShortcutsOn, shortcutsOn } from '@/lib/shortcuts';

/**
 * The keys `n` (the page's "New …") and `?` (the list of shortcuts, in a dialog); `/` is the
 * header search's own (site-search.tsx). See lib/shortcuts.ts for when a key counts.
 */
export function Shortcuts() {
  const [listing, setListing] = useState(false);
  const [newLabel, setNewLabel] = useState<string | null>(null);
  // Listening from the commit that shows the page, before it is painted: a key pressed as soon
  // as the page appears is not lost.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isShortcut(event, '?')) {
        event.preventDefault();
        setNewLabel(newButton()?.textContent ?? null);
        setListing(true);
      } else if (isShortcut(event, 'n')) {
        const button = newButton();
        if (!button) return;
        event.preventDefault();
        button.click();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog open={listing} title="Keyboard shortcuts" onClose={() => setListing(false)}>
      <ShortcutList newLabel={newLabel} onDone={() => setListing(false)} />
    </Dialog>
  );
}

/** The shortcuts, and the switch that turns the single-key ones off (also on the account page). */
export function ShortcutList({ newLabel, onDone }: { newLabel: string | null; onDone?: () => void }) {
  return (
    <>
      <div className="dialog-body">
        <dl className="facts shortcuts">
          <dt>
            <kbd>/</kbd>
          </dt>
          <dd>Search the catalogue</dd>
          <dt>
            <kbd>n</kbd>
          </dt>
          <dd>
            {newLabel
              ? `${newLabel} (on this page)`
              : 'New … on the pages that make records (songs, artists, playlists, users)'}
          </dd>
          <dt>
            <kbd>?</kbd>
          </dt>
          <dd>This list</dd>
          <dt>
            <kbd>Esc</kbd>
          </dt>
          <dd>Close a dialog, a menu or a list of suggestions</dd>
        </dl>
        <ShortcutSwitch />
      </div>
      {onDone && (
        <footer className="dialog-actions">
          <Button onClick={onDone}>Done</Button>
        </footer>
      )}
    </>
  );
}

/** Turns the single-key shortcuts on or off, for this browser. */
export function ShortcutSwitch() {
  const id = useId();
  const on = useSyncExternalStore(onShortcutsChange, shortcutsOn, () => true);
  return (
    <div className="checkbox-field">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={on}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setShortcutsOn(event.target.checked)}
        />{' '}
        Single-key shortcuts (<kbd>/</kbd>, <kbd>n</kbd>, <kbd>?</kbd>)
      </label>
      <p className="field-hint" id={`${id}-hint`}>
        Off, no single key does anything by itself: for speech input, or keys pressed by mistake. Kept in this
        browser.
      </p>
    </div>
  );
}
