'use client';

import type { FormEvent, ReactNode } from 'react';
import { Button, ErrorNotice } from '@/components/ui';

/**
 * The frame every create or edit dialog's form shares: the API's refusal in words above the
 * fields, then Cancel and the submit button. Validation is the form's own (useFormErrors), so the
 * browser's is off.
 */
export function DialogForm({
  onSubmit,
  error,
  busy,
  submitLabel,
  onCancel,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  error: unknown;
  busy: boolean;
  submitLabel: string;
  onCancel?: (() => void) | undefined;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <div className="dialog-body">
        <ErrorNotice error={error} />
        {children}
      </div>
      <footer className="dialog-actions">
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
        <Button type="submit" variant="primary" busy={busy}>
          {submitLabel}
        </Button>
      </footer>
    </form>
  );
}
