'use client';

import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { describeError } from '@/lib/errors';

export { formatDate, formatDuration } from '@/lib/format';

export function Button({
  variant = 'secondary',
  busy = false,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  busy?: boolean;
}) {
  return (
    <button
      type="button"
      {...props}
      className={`btn btn-${variant} ${props.className ?? ''}`}
      disabled={props.disabled || busy}
      aria-busy={busy || undefined}
    >
      {children}
    </button>
  );
}

/** What a labelled control hands its element: its id, and the ids of its hint and error. */
interface ControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: (control: ControlProps) => ReactNode;
}

/** A labelled control with its hint and its error (client-side or the server's 422) beside it. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A control's own attributes (but its id, which the field gives it), with its label, error and hint. */
type Labelled<Attributes> = Omit<Attributes, 'id'> & {
  label: string;
  error?: string | undefined;
  hint?: string;
};

type ControlAttributes<Attributes> = Omit<Labelled<Attributes>, 'label' | 'error' | 'hint'>;

/** A control in its Field: `render` draws the element from the field's ids and its own attributes. */
function LabelledControl<Attributes>({
  props: { label, error, hint, ...attributes },
  render,
}: {
  props: Labelled<Attributes>;
  render: (control: ControlProps, attributes: ControlAttributes<Attributes>) => ReactNode;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => render(control, attributes)}
    </Field>
  );
}

export function TextInput(props: Labelled<InputHTMLAttributes<HTMLInputElement>>) {
  return <LabelledControl props={props} render={(control, rest) => <input {...control} {...rest} />} />;
}

export function TextArea(props: Labelled<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <LabelledControl props={props} render={(control, rest) => <textarea {...control} rows={3} {...rest} />} />
  );
}

export function Select(props: Labelled<SelectHTMLAttributes<HTMLSelectElement>>) {
  return <LabelledControl props={props} render={(control, rest) => <select {...control} {...rest} />} />;
}

export function Checkbox({
  label,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: string }) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...props} /> {label}
    </label>
  );
}

/** An error in words, announced to screen readers. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong>{title} </strong>}
      {typeof error === 'string' ? error : describeError(error)}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' }) {
  return (
    <div className={`notice notice-${tone}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function Pager({
  page,
  limit,
  total,
  onPage,
  label = 'Pages',
}: {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  label?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (total <= limit && page === 1) {
    return <p className="pager-summary">{total === 1 ? '1 item' : `${total} items`}</p>;
  }
  return (
    <nav className="pager" aria-label={label}>
      <Button variant="ghost" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        ← Previous
      </Button>
      <span aria-live="polite">
        Page {page} of {pages} · {total} items
      </span>
      <Button variant="ghost" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        Next →
      </Button>
    </nav>
  );
}

export function useDebounced<T>(value: T, ms = 250): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function SearchBox({
  label,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="search">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder ?? label}
        onChange={(e) => onChange(e.target.value)}
        maxLength={200}
      />
    </div>
  );
}

/** A modal dialog on the native <dialog>: focus is trapped and restored, Escape closes it. */
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
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('input, select, textarea, button:not(.dialog-close)')?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="dialog-close" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          {children}
        </>
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

/**
 * The states of a query: loading, failed (the error, then `failed` if given), empty (when
 * `isEmpty` says so, showing `empty`), or the data.
 */
export function QueryView<T>({
  query,
  isEmpty,
  empty,
  failed,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  failed?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError || query.data === undefined) {
    return (
      <>
        <ErrorNotice error={query.error} />
        {failed}
      </>
    );
  }
  if (isEmpty?.(query.data)) return <Empty>{empty}</Empty>;
  return <>{children(query.data)}</>;
}
