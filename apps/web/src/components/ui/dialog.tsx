'use client';

import { createContext, type ReactNode, useContext, useEffect, useId, useRef } from 'react';
import { Button, ErrorNotice } from '@/components/ui';

/**
 * Puts the focus back where an action started, or, when that element is gone (the row just
 * deleted), on the page's heading: never on <body>, where a keyboard user would start over.
 */
export function restoreFocus(element: HTMLElement | null) {
  if (element?.isConnected) {
    element.focus();
    return;
  }
  const heading = document.querySelector<HTMLElement>('main h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

/**
 * Decides whether the dialog around it may close now: it is given the dialog's `close` and answers
 * true when it has taken over (a form asking about unsaved changes, which closes it if told to).
 */
type CloseGuard = (close: () => void) => boolean;

const CloseGuardContext = createContext<{ current: CloseGuard | null } | null>(null);

/**
 * Makes `guard` decide every close of the dialog around it (Escape, its × button): a form with
 * unsaved changes asks first. Does nothing outside a Dialog.
 */
export function useCloseGuard(guard: CloseGuard) {
  const slot = useContext(CloseGuardContext);
  const latest = useRef(guard);
  latest.current = guard;
  useEffect(() => {
    if (!slot) return;
    const own: CloseGuard = (close) => latest.current(close);
    slot.current = own;
    return () => {
      if (slot.current === own) slot.current = null;
    };
  }, [slot]);
}

/**
 * A modal dialog on the native <dialog>: focus is trapped and restored, Escape closes it. A form
 * inside may hold a close back (useCloseGuard) to ask about unsaved changes first.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const guard = useRef<CloseGuard | null>(null);
  const requestClose = () => {
    if (!guard.current?.(onClose)) onClose();
  };
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>('input, select, textarea, button:not(.dialog-close)')?.focus();
    } else if (!open && dialog.open) {
      // The content is gone before this runs (it renders only while open), and the browser's own
      // restoring does not survive that: focus goes back to what opened the dialog by hand.
      dialog.close();
      restoreFocus(opener.current);
      opener.current = null;
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onKeyDown={(e) => {
        // Escape is handled here rather than left to the browser's cancel: Chrome lets a page hold
        // back only one cancel per user activation, so a second Escape would close the dialog
        // over the question about unsaved changes. A control that used the key (a list it
        // closed) has cancelled it already.
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        e.preventDefault();
        requestClose();
      }}
      onCancel={(e) => {
        // Other ways to ask for a close (a phone's back gesture).
        e.preventDefault();
        requestClose();
      }}
    >
      {open && (
        <CloseGuardContext.Provider value={guard}>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="dialog-close" aria-label="Close" onClick={requestClose}>
              ×
            </button>
          </header>
          {children}
        </CloseGuardContext.Provider>
      )}
    </dialog>
  );
}

/** Asks before an irreversible action; shows why it failed if it does. */
export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div className="dialog-body">
        <p>{body}</p>
        <ErrorNotice error={error} />
      </div>
      <footer className="dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="danger" busy={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </footer>
    </Dialog>
  );
}
