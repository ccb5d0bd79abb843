'use client';

import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { Button, ErrorNotice, RequiredNote } from '@/components/ui';
import { Dialog, useCloseGuard } from '@/components/ui/dialog';
import { firstInvalid, useFocusFirstInvalid } from '@/lib/form';
import { useUnsavedWarning } from '@/lib/unsaved';

/** What a record's create-or-edit form is told: what to do once it is saved, or cancelled. */
export interface RecordFormProps<T> {
  onSaved: (record: T) => void;
  onCancel?: () => void;
}

/**
 * A record form's frame (useSave), in a dialog or a page card: the API's refusal in words above
 * the fields, the note on fields marked "*" (`requiredNote`), then Cancel (when `onCancel` is
 * given) and the submit button (busy while `mutation` is pending). Validation is the form's own,
 * so the browser's is off; `onSubmit` runs in place of the browser's and answers `false` (or a
 * promise of it) when it refused what was typed.
 *
 * Where the focus goes after a refusal: to the first field in error (the form's, or the server's
 * 422), else to the refusal itself, so a keyboard or screen reader user lands on what to fix and
 * the focus never drops to <body>.
 *
 * While the values differ from the initial ones (`dirty`, else useSave's `mutation.dirty`), Cancel
 * and the dialog's own closing (Escape, ×) ask "Discard your changes?" in place of the buttons,
 * and leaving the page asks through the browser. A save closes through `onSaved`, so never asks.
 */
export function DialogForm({
  onSubmit,
  mutation,
  submitLabel,
  onCancel,
  requiredNote = false,
  dirty,
  children,
}: {
  onSubmit: () => unknown;
  mutation: { error: unknown; isPending: boolean; dirty?: boolean };
  submitLabel: string;
  onCancel?: (() => void) | undefined;
  requiredNote?: boolean;
  dirty?: boolean | undefined;
  children: ReactNode;
}) {
  const invalid = useFocusFirstInvalid<HTMLFormElement>();
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (mutation.error) (firstInvalid(invalid.ref.current) ?? notice.current)?.focus();
  }, [mutation.error, invalid.ref]);
  const unsaved = dirty ?? mutation.dirty ?? false;
  useUnsavedWarning(unsaved);
  const discard = useDiscardQuestion(unsaved, invalid.ref);
  return (
    <form
      ref={invalid.ref}
      onSubmit={(event) => {
        event.preventDefault();
        void Promise.resolve(onSubmit()).then((sent) => {
          if (sent === false) invalid.failed();
        });
      }}
      noValidate
    >
      <div className="dialog-body">
        {mutation.error ? (
          <div ref={notice} tabIndex={-1} className="form-error">
            <ErrorNotice error={mutation.error} />
          </div>
        ) : null}
        {requiredNote && <RequiredNote />}
        {children}
      </div>
      {discard.question ?? (
        <footer className="dialog-actions">
          {onCancel && <Button onClick={() => discard.ask(onCancel)}>Cancel</Button>}
          <Button type="submit" variant="primary" busy={mutation.isPending}>
            {submitLabel}
          </Button>
        </footer>
      )}
    </form>
  );
}

/**
 * "Discard your changes?", asked in place of a form's buttons before `ask(leave)` lets it go while
 * `dirty`; also before the dialog around it closes (`form` is the form it belongs to). The focus goes to "Keep editing" (the safe
 * answer), and back to where it was when that is chosen. Escape while asking keeps editing.
 */
function useDiscardQuestion(dirty: boolean, form: RefObject<HTMLFormElement | null>) {
  const [pending, setPending] = useState<{ leave: () => void; from: Element | null } | null>(null);
  const group = useRef<HTMLFieldSetElement>(null);
  // Where the focus goes back to once "Keep editing" is chosen.
  const back = useRef<Element | null>(null);
  const questionId = useId();
  useEffect(() => {
    // "Keep editing" is the group's first button.
    if (pending) {
      group.current?.querySelector('button')?.focus();
      return;
    }
    const from = back.current;
    back.current = null;
    if (!from) return;
    // Cancel, asked from, was replaced by the question: its successor in the footer takes it.
    const target = from.isConnected ? from : form.current?.querySelector('footer.dialog-actions button');
    if (target instanceof HTMLElement) target.focus();
  }, [pending, form]);

  const keepEditing = () => {
    back.current = pending?.from ?? null;
    setPending(null);
  };
  /** Runs `leave` now when nothing would be lost, else asks; answers whether it asked. */
  const ask = (leave: () => void): boolean => {
    if (pending) {
      keepEditing();
      return true;
    }
    if (!dirty) {
      leave();
      return false;
    }
    setPending({ leave, from: document.activeElement });
    return true;
  };
  useCloseGuard((close) => {
    if (!dirty && !pending) return false;
    ask(close);
    return true;
  });

  const question = pending && (
    // A fieldset styled as the footer it replaces: only its top rule, none of the browser's frame.
    <fieldset
      ref={group}
      className="dialog-actions"
      style={{ margin: 0, minWidth: 0, borderWidth: '1px 0 0' }}
      aria-labelledby={questionId}
    >
      <p id={questionId} style={{ margin: '0 auto 0 0', alignSelf: 'center', fontWeight: 600 }}>
        Discard your changes?
      </p>
      <Button onClick={keepEditing}>Keep editing</Button>
      <Button
        variant="danger"
        onClick={() => {
          setPending(null);
          pending.leave();
        }}
      >
        Discard
      </Button>
    </fieldset>
  );
  return { ask, question };
}

/**
 * A list screen's "New …": the primary button for its header and the dialog it opens (`label` is
 * both the button's text and the dialog's title). `form(close)` draws the create form, afresh each
 * time the dialog opens.
 */
export function useCreateDialog(label: string, form: (close: () => void) => ReactNode) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return {
    button: (
      <Button variant="primary" onClick={() => setOpen(true)} data-shortcut="new">
        {label}
      </Button>
    ),
    dialog: (
      <Dialog open={open} title={label} onClose={close}>
        {open && form(close)}
      </Dialog>
    ),
  };
}
