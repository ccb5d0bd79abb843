'use client';

import {
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
} from 'react';
import { charactersLeft } from '@/lib/validation-words';

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
  /**
   * The most characters the value may have (the form's schema says so). Said, never enforced by
   * the control (no `maxLength`, which would cut what is typed or pasted without a word): a
   * counter says how many are over, and the form refuses the value in words.
   */
  limit?: number | undefined;
};

type ControlAttributes<Attributes> = Omit<Labelled<Attributes>, 'label' | 'error' | 'hint' | 'limit'>;

/**
 * A control in its Field: `render` draws the element from the field's ids and its own attributes
 * (`required` marks the label too).
 */
function LabelledControl<Attributes extends { required?: boolean | undefined }>({
  props: { label, error, hint, limit: _limit, ...attributes },
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

/**
 * A ref for a controlled text control that takes, once it is hydrated, what was typed or filled
 * into its server-rendered element before the page's scripts ran (a quick typist on a slow
 * connection, a password manager's autofill). React keeps the element's text on screen but not in
 * the form's state: the form then refused a sign-in as empty, and the next render wiped the
 * fields. The text is handed to `onChange` as if typed.
 */
export function useTypedBeforeHydration<E extends HTMLInputElement | HTMLTextAreaElement>(
  value: unknown,
  onChange: ((event: ChangeEvent<E>) => void) | undefined,
) {
  const ref = useRef<E>(null);
  // Once, on mount: a control mounted later (not hydrated) shows its state's value already.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the first render's value counts
  useEffect(() => {
    const element = ref.current;
    if (element && onChange && typeof value === 'string' && element.value !== value) {
      onChange({ target: element, currentTarget: element } as ChangeEvent<E>);
    }
  }, []);
  return ref;
}

/** A text field; past its `limit`, a counter of the characters too many below it. */
export function TextInput(props: Labelled<InputHTMLAttributes<HTMLInputElement>>) {
  const { limit, value } = props;
  const ref = useTypedBeforeHydration<HTMLInputElement>(value, props.onChange);
  const counter =
    limit !== undefined && typeof value === 'string' && value.length > limit
      ? charactersLeft(value.length, limit)
      : undefined;
  return (
    <LabelledControl
      props={props}
      counter={counter}
      render={(control, rest) => <input ref={ref} {...control} {...rest} />}
    />
  );
}

/** A text area; with a `limit`, a counter of the characters left (or too many) below it. */
export function TextArea(props: Labelled<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const { limit, value } = props;
  const ref = useTypedBeforeHydration<HTMLTextAreaElement>(value, props.onChange);
  const counter =
    limit !== undefined && typeof value === 'string' ? charactersLeft(value.length, limit) : undefined;
  return (
    <LabelledControl
      props={props}
      counter={counter}
      render={(control, rest) => <textarea ref={ref} {...control} rows={3} {...rest} />}
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

/** A label only assistive technology reads: for a control whose placeholder shows its purpose. */
export function HiddenLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="sr-only">
      {children}
    </label>
  );
}
