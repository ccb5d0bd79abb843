'use client';

import { type InputHTMLAttributes, useEffect, useState } from 'react';
import { Field } from '@/components/ui';
import { useTypedBeforeHydration } from '@/components/ui/fields';

type PasswordInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
};

/**
 * A password field (label, hint and error as TextInput gives them) with a Show/Hide toggle beside
 * it, so a person can check what they typed. The toggle names the field it controls and says
 * whether the password is shown (aria-pressed); its target is at least 24 by 24 pixels (WCAG 2.2,
 * 2.5.8). A shown password is hidden again when its form is submitted: browsers keep what was typed
 * in text fields for autofill, and the password must not land there.
 */
export function PasswordInput({ label, error, hint, style, ...attributes }: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  // Typed or autofilled before the page's scripts ran: taken into the form once they run.
  const input = useTypedBeforeHydration<HTMLInputElement>(attributes.value, attributes.onChange);
  // Once, on mount (the ref object is the same on every render).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the element a ref holds is read, not tracked
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const hide = () => setShown(false);
    form.addEventListener('submit', hide);
    return () => form.removeEventListener('submit', hide);
  }, []);
  return (
    <Field label={label} error={error} hint={hint} required={attributes.required}>
      {(control) => (
        <div style={{ display: 'flex', gap: '0.5rem', alignItems: 'stretch' }}>
          <input
            ref={input}
            {...control}
            {...attributes}
            type={shown ? 'text' : 'password'}
            // Shown as text, a password must not go to a spell-checking service or be "corrected".
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            style={{ flex: 1, minWidth: 0, ...style }}
          />
          <button
            type="button"
            className="btn btn-secondary"
            aria-controls={control.id}
            aria-pressed={shown}
            onClick={() => setShown((value) => !value)}
            // Relative: the hidden word stays inside it.
            style={{ position: 'relative', minWidth: 24, minHeight: 24 }}
          >
            {shown ? 'Hide' : 'Show'}
            <span className="sr-only"> password</span>
          </button>
        </div>
      )}
    </Field>
  );
}
