'use client';

import { useEffect, useState } from 'react';

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

/**
 * While `dirty`, leaving the page (reload, closing the tab, typing an address) asks first, with
 * the browser's own "Leave site?" prompt: a page cannot word it, only ask for it.
 */
export function useUnsavedWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
      return '';
    };
    window.onbeforeunload = warn;
    return () => {
      // Another form may have set its own since: leave that one in place.
      if (window.onbeforeunload === warn) window.onbeforeunload = null;
    };
  }, [dirty]);
}
