'use client';

import { useSyncExternalStore } from 'react';
import { hasUnsavedEdits } from '@/lib/unsaved';

/**
 * A session that ends (refused even after a refresh: revoked, signed out elsewhere, expired)
 * while a form holds unsaved edits is signed into again in place, in a dialog (SignInAgain),
 * so the edits are kept; with nothing unsaved, the console goes to the sign-in page as before.
 * This is the dialog's state: whether it is asked for, and who listens (the signed-in shell).
 */
let ended = false;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/**
 * Called for every refused call: true when the dialog takes over (a form has unsaved edits and
 * the signed-in shell is there to show it), false when the caller should leave for sign-in.
 */
export function endSessionInPlace(): boolean {
  if (listeners.size === 0 || !hasUnsavedEdits()) return false;
  if (!ended) {
    ended = true;
    emit();
  }
  return true;
}

/** The dialog is done with: signed in again, or dismissed (the next refused call asks again). */
export function sessionResumed() {
  ended = false;
  emit();
}

/** Whether the sign-in-again dialog is asked for; subscribing marks the shell as there to show it. */
export function useSessionEnded(): boolean {
  return useSyncExternalStore(
    (changed) => {
      listeners.add(changed);
      return () => listeners.delete(changed);
    },
    () => ended,
    () => false,
  );
}
