'use client';

import { takesText } from '@/lib/site-search';

/**
 * The console's single-key shortcuts: `/` the header's search, `n` the page's "New …" (the
 * button marked `data-shortcut="new"`), `?` the list of them. A key counts only on the page
 * itself: not while typing in a field or choosing in a list, not under an open dialog, and not
 * with Ctrl, Alt or Meta. They can be turned off (WCAG 2.1.4: a single key may be pressed by
 * speech input or by mistake), and the choice is kept in this browser.
 */
const OFF_KEY = 'shortcuts';

const listeners = new Set<() => void>();

export function shortcutsOn(): boolean {
  try {
    return window.localStorage.getItem(OFF_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setShortcutsOn(on: boolean) {
  try {
    if (on) window.localStorage.removeItem(OFF_KEY);
    else window.localStorage.setItem(OFF_KEY, 'off');
  } catch {
    // Storage refused (a private window's quota): the choice lasts for this page only.
  }
  for (const changed of listeners) changed();
}

/** Calls `changed` when shortcuts are turned on or off; returns the way to stop. */
export function onShortcutsChange(changed: () => void): () => void {
  listeners.add(changed);
  return () => listeners.delete(changed);
}

/** Whether `event` is the single key `key` pressed on the page itself, with shortcuts on. */
export function isShortcut(event: KeyboardEvent, key: string): boolean {
  if (event.key !== key || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) {
    return false;
  }
  const target = event.target instanceof HTMLElement ? event.target : null;
  if (target && (takesText(target as HTMLInputElement) || target.closest('select, [role="listbox"]'))) {
    return false;
  }
  // A modal dialog keeps the keys inside it (the rest of the page is inert).
  if (document.querySelector('dialog[open]')) return false;
  return shortcutsOn();
}

/** The page's "New …" button, when it has one. */
export function newButton(): HTMLButtonElement | null {
  return document.querySelector<HTMLButtonElement>('main [data-shortcut="new"]');
}
