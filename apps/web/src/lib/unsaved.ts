'use client';

import { useEffect, useState } from 'react';
import { followedLink, isOtherPage } from '@/lib/link-click';

/**
 * Whether a form's values differ from those it started with. Form values are plain data (text,
 * booleans, lists of ids), built in the same key order each time, so their JSON compares them.
 */
export function differs(values: object, initial: object): boolean {
  return JSON.stringify(values) !== JSON.stringify(initial);
}

/** Whether `values` differ from the first ones this component was given (see `differs`). */
export function useDirty(values: object): boolean {
  const [initial] = useState(values);
  return differs(values, initial);
}

/** What the console asks before an in-app link leaves unsaved edits behind. */
export const LEAVE_QUESTION = 'Discard your changes? What you typed has not been saved.';

/** The forms with unsaved edits now (a dialog's and a page's may be open at once). */
const dirtyForms = new Set<symbol>();

/** Whether a form on the page holds edits not saved yet. */
export function hasUnsavedEdits(): boolean {
  return dirtyForms.size > 0;
}

/**
 * A click on a link to another page of the console, while a form has unsaved edits: asks first,
 * and stays when the answer is no. Runs in the capture phase, before Next's <Link> handler, which
 * then never sees the click. Clicks that open elsewhere (a modifier key, another button,
 * `target`, `download`) and links within the page go through; links to other sites leave the
 * page, which `beforeunload` asks about.
 */
function guardLinks(event: MouseEvent) {
  if (event.defaultPrevented) return;
  const to = followedLink(event);
  if (!to || !isOtherPage(to) || window.confirm(LEAVE_QUESTION)) return;
  event.preventDefault();
  event.stopPropagation();
}

function warnBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  // Older browsers ask only when returnValue is set.
  event.returnValue = '';
  return '';
}

/**
 * While `dirty`, leaving the page asks first: by a link within the console, with this console's
 * question (`guardLinks`); by reloading, closing the tab or typing an address, with the browser's
 * own "Leave site?" prompt (a page cannot word that one, only ask for it). The browser's Back
 * button within the console does not ask: the History API offers no way to hold it.
 */
export function useUnsavedWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const form = Symbol('dirty form');
    if (dirtyForms.size === 0) {
      window.onbeforeunload = warnBeforeUnload;
      document.addEventListener('click', guardLinks, true);
    }
    dirtyForms.add(form);
    return () => {
      dirtyForms.delete(form);
      if (dirtyForms.size > 0) return;
      if (window.onbeforeunload === warnBeforeUnload) window.onbeforeunload = null;
      document.removeEventListener('click', guardLinks, true);
    };
  }, [dirty]);
}
