'use client';

import { type ReactNode, useState } from 'react';
import { Button, Dialog, ErrorNotice } from '@/components/ui';

/** What a record's create-or-edit form is told: what to do once it is saved, or cancelled. */
export interface RecordFormProps<T> {
  onSaved: (record: T) => void;
  onCancel?: () => void;
}

/**
 * A record form's frame (useSave), in a dialog or a page card: the API's refusal in words above
 * the fields, then Cancel (when `onCancel` is given) and the submit button (busy while `mutation`
 * is pending). Validation is the form's own, so the browser's is off; `onSubmit` runs in place of
 * the browser's.
 */
export function DialogForm({
  onSubmit,
  mutation,
  submitLabel,
  onCancel,
  children,
}: {
  onSubmit: () => void;
  mutation: { error: unknown; isPending: boolean };
  submitLabel: string;
  onCancel?: (() => void) | undefined;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      <div className="dialog-body">
        <ErrorNotice error={mutation.error} />
        {children}
      </div>
      <footer className="dialog-actions">
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
        <Button type="submit" variant="primary" busy={mutation.isPending}>
          {submitLabel}
        </Button>
      </footer>
    </form>
  );
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
      <Button variant="primary" onClick={() => setOpen(true)}>
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
