'use client';

import { type ReactNode, useState } from 'react';
import { Button, Field } from '@/components/ui';

export interface ShownOnceProps {
  /** Why to copy it now: what the server keeps of it, and what to do if it is lost. */
  warning: ReactNode;
  /** The box's label and hint. */
  label: string;
  hint: string;
  value: string;
  /** What the value is called in the copy button and its messages: `secret`, `token`. */
  noun: string;
  onDone: () => void;
}

/**
 * A credential the server shows this once (an API key's token, a webhook's signing secret): the
 * warning, the value in a read-only box (selected when focused, for copying by hand) and a button
 * that copies it, saying whether the browser let it.
 */
export function ShownOnce({ warning, label, hint, value, noun, onDone }: ShownOnceProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <>
      <div className="dialog-body">
        <div className="notice notice-warning" role="alert">
          {warning}
        </div>
        <Field label={label} hint={hint}>
          {(control) => (
            <input
              {...control}
              className="token"
              readOnly
              value={value}
              onFocus={(e) => e.currentTarget.select()}
              spellCheck={false}
            />
          )}
        </Field>
        <p role="status" className={copied === 'failed' ? 'field-error' : 'field-hint'}>
          {copied === 'yes' && 'Copied to the clipboard.'}
          {copied === 'failed' &&
            `The browser did not allow copying: select the ${noun} and copy it yourself.`}
        </p>
      </div>
      <footer className="dialog-actions">
        <Button onClick={copy}>Copy {noun}</Button>
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </footer>
    </>
  );
}
