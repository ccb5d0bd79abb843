'use client';

import type { ButtonHTMLAttributes } from 'react';

export function Button({
  variant = 'secondary',
  busy = false,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  busy?: boolean;
}) {
  // A busy button stays enabled (aria-disabled) and ignores clicks: disabling it would take the
  // focus away from it (to <body>), so a keyboard user would lose their place on every save.
  return (
    <button
      type="button"
      {...props}
      className={`btn btn-${variant} ${props.className ?? ''}`}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        // A cancelled click also cancels the form submission a submit button would start.
        if (busy) event.preventDefault();
        else props.onClick?.(event);
      }}
    >
      {children}
    </button>
  );
}
