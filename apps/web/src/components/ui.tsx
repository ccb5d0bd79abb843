'use client';

import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useState,
} from 'react';
import { describeError } from '@/lib/errors';
import { charactersLeft } from '@/lib/validation-words';

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

/** What a labelled control hands its element: its id, the ids of its hints and error, `required`. */
interface ControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
  'aria-required': true | undefined;
}

interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  /** Marks the label with "*" (hidden from screen readers, which hear the control's `required`). */
  required?: boolean | undefined;
  /** A counter such as "1990 characters left", described with the hint. */
  counter?: string | undefined;
  children: (control: ControlProps) => ReactNode;
}

/** A labelled control with its hint and its error (client-side or the server's 422) beside it. */
export function Field({ label, error, hint, required, counter, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const counterId = counter ? `${id}-counter` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, counterId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {children({
        id,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
        'aria-required': required ? true : undefined,
      })}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {counter && (
        <p className="field-hint" id={counterId}>
          {counter}
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

/** The one note of a form with fields marked "*" (Field's `required`). */
export function RequiredNote({ ref }: { ref?: Ref<HTMLParagraphElement> }) {
  return (
    <p className="field-hint" ref={ref}>
      Fields marked * are required.
    </p>
  );
}

/** A control's own attributes (but its id, which the field gives it), with its label, error and hint. */
type Labelled<Attributes> = Omit<Attributes, 'id'> & {
  label: string;
  error?: string | undefined;
  hint?: string;
};

type ControlAttributes<Attributes> = Omit<Labelled<Attributes>, 'label' | 'error' | 'hint'>;

/**
 * A control in its Field: `render` draws the element from the field's ids and its own attributes
 * (`required` marks the label too).
 */
function LabelledControl<Attributes extends { required?: boolean | undefined }>({
  props: { label, error, hint, ...attributes },
  counter,
  render,
}: {
  props: Labelled<Attributes>;
  counter?: string | undefined;
  render: (control: ControlProps, attributes: ControlAttributes<Attributes>) => ReactNode;
}) {
  const { required } = attributes as { required?: boolean | undefined };
  return (
    <Field label={label} error={error} hint={hint} required={required} counter={counter}>
      {(control) => render(control, attributes)}
    </Field>
  );
}

export function TextInput(props: Labelled<InputHTMLAttributes<HTMLInputElement>>) {
  return <LabelledControl props={props} render={(control, rest) => <input {...control} {...rest} />} />;
}

/** A text area; with a `maxLength`, a counter of the characters left below it. */
export function TextArea(props: Labelled<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const { maxLength, value } = props;
  const counter =
    maxLength !== undefined && typeof value === 'string'
      ? charactersLeft(value.length, maxLength)
      : undefined;
  return (
    <LabelledControl
      props={props}
      counter={counter}
      render={(control, rest) => <textarea {...control} rows={3} {...rest} />}
    />
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

/** A label only assistive technology reads: for a control whose placeholder shows its purpose. */
export function HiddenLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="sr-only">
      {children}
    </label>
  );
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
      <HiddenLabel htmlFor={id}>{label}</HiddenLabel>
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
