'use client';

import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { doneMessage, useToast } from '@/components/ui/toast';
import { toProblem } from '@/lib/errors';
import { differs } from '@/lib/unsaved';
import { errorsInWords, fieldRules, messageInWords } from '@/lib/validation-words';

/** What a form knows of its fields besides their values; all of it optional. */
export interface FormRules<V> {
  /**
   * The schema whose rules mark the fields (`required`, a counted `limit` but on passwords, emails
   * and account names, see FieldRules.uncut) and that checks each one as it is left; without it,
   * fields are checked on submit only (`check`).
   */
  schema?: z.ZodType;
  /** What the schema checks, made from the values (blank text as null, a year as a number). */
  payload?: (values: V) => object;
  /** What each field holds, with its article, for "Enter a name". */
  nouns?: Partial<Record<keyof V & string, string>>;
  /** Errors the schema cannot word (a length typed as "3:75"): they replace its own for a field. */
  refine?: (values: V) => Record<string, string>;
}

/** The errors of one field: its own, or one reported on one of its items (`artistIds.2`). */
const belongsTo = (key: string, name: string) => key === name || key.startsWith(`${name}.`);

function errorFor(errors: Record<string, string>, name: string): [string, string] | undefined {
  return name in errors
    ? [name, errors[name]!]
    : Object.entries(errors).find(([key]) => key.startsWith(`${name}.`));
}

/**
 * A form's field errors in words: the client-side ones from the procedure's zod schema, else the
 * server's 422 `errors[]` for the last attempt, but for fields edited since. `check` validates
 * and returns the parsed input (or null); `recheck` validates one field.
 */
function useFormErrors<V extends object>(serverError: unknown, options: FormRules<V>, values: V) {
  const [fields, setFields] = useState<Record<string, string>>({});
  // The fields edited since the server refused them: its errors for them no longer apply.
  const [edited, setEdited] = useState<{ error: unknown; names: ReadonlySet<string> }>({
    error: null,
    names: new Set(),
  });
  const nouns: Record<string, string | undefined> = options.nouns ?? {};
  const server = serverError ? toProblem(serverError).fields : {};
  const stale = edited.error === serverError ? edited.names : new Set<string>();

  const errorOf = (name: string): string | undefined => {
    const own = errorFor(fields, name);
    if (own) return own[1];
    const sent = stale.has(name) ? undefined : errorFor(server, name);
    if (!sent) return undefined;
    const [key, message] = sent;
    return messageInWords(
      message,
      key === name ? { rules: fieldRules(options.schema, name), noun: nouns[name] } : {},
    );
  };

  /** The errors of `input` by `schema`, and the form's own for `formValues`. */
  const errorsOf = (schema: z.ZodType, input: unknown, formValues: V) => {
    const result = schema.safeParse(input, { reportInput: true });
    return {
      result,
      errors: {
        ...(result.success ? {} : errorsInWords(schema, result.error.issues, nouns)),
        ...options.refine?.(formValues),
      },
    };
  };

  function check<S extends z.ZodType>(schema: S, input: unknown, formValues: V = values): z.output<S> | null {
    const { result, errors } = errorsOf(schema, input, formValues);
    setFields(errors);
    return result.success && Object.keys(errors).length === 0 ? (result.data as z.output<S>) : null;
  }

  function recheck(name: string, next: V) {
    if (!options.schema) return;
    const { errors } = errorsOf(options.schema, options.payload ? options.payload(next) : next, next);
    setFields((current) => {
      const kept = Object.entries(current).filter(([key]) => !belongsTo(key, name));
      const found = Object.entries(errors).filter(([key]) => belongsTo(key, name));
      return Object.fromEntries([...kept, ...found]);
    });
  }

  const markEdited = (name: string) =>
    setEdited((last) => ({
      error: serverError,
      names: new Set([...(last.error === serverError ? last.names : []), name]),
    }));

  return {
    errorOf,
    check,
    setFields,
    recheck,
    markEdited,
    shows: (name: string) => !!errorFor(fields, name),
  };
}

/** The names of a form's text values (those a text control edits). */
type TextName<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/**
 * A form's values and their errors (useFormErrors). `field(name)` gives the text control for
 * `name` its value, its handlers, its error and, with `options.schema`, `required` and the
 * schema's most characters as `limit` (a counter past it; never `maxLength`, which would cut what
 * is typed or pasted without a word; fields whose limit a hint says, such as passwords, get
 * none). A field the user typed in is checked when they leave it, and once it shows an error,
 * again on every change.
 */
export function useForm<V extends object>(initial: V, serverError: unknown, options: FormRules<V> = {}) {
  const [values, setValues] = useState(initial);
  const { recheck, markEdited, shows, ...errors } = useFormErrors(serverError, options, values);
  // Only fields typed in are checked when left: not one tabbed through, nor the one the dialog
  // focuses as it opens, so nobody is told off for a field they have not filled in yet.
  const typed = useRef(new Set<string>());

  function change(name: TextName<V>, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    typed.current.add(name);
    markEdited(name);
    if (shows(name)) recheck(name, { ...values, [name]: value });
  }

  function leave(name: TextName<V>, to: EventTarget | null) {
    // Not when the focus goes to a button: a message appearing above it would move it from under
    // the pointer between press and release, and the click would be lost (Cancel, or the submit,
    // which checks every field anyway).
    if (!typed.current.has(name) || (to instanceof Element && to.closest('button'))) return;
    recheck(name, values);
  }

  const field = (name: TextName<V>) => {
    const rules = fieldRules(options.schema, name);
    return {
      value: values[name] as string,
      onChange: (event: { target: { value: string } }) => change(name, event.target.value),
      onBlur: (event: { relatedTarget: EventTarget | null }) => leave(name, event.relatedTarget),
      error: errors.errorOf(name),
      // Left out when unknown, so a `required` written on the control stays.
      ...(rules.required ? { required: true } : {}),
      // Said, not enforced: the control counts what is over it, the check refuses it in words.
      ...(rules.maxLength !== undefined && !rules.uncut ? { limit: rules.maxLength } : {}),
    };
  };
  return { ...errors, values, setValues, field };
}

/** The first control in error in the form around (or at) `element`. */
export function firstInvalid(element: Element | null): HTMLElement | null {
  const form = element?.closest('form') ?? element;
  return form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? null;
}

/**
 * After a refused submit (`failed()`), the first field in error takes the focus: `ref` goes on
 * the form, or on any element inside it.
 */
export function useFocusFirstInvalid<E extends HTMLElement = HTMLElement>() {
  const ref = useRef<E>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt > 0) firstInvalid(ref.current)?.focus();
  }, [attempt]);
  return { ref, failed: () => setAttempt((n) => n + 1) };
}

/** Blank text as null: an optional text left empty clears the value. */
export function orNull(text: string): string | null {
  return text.trim() === '' ? null : text;
}

interface Mutation<I> {
  // A method, so tRPC's mutateAsync (which takes the procedure's input, and options) fits. Its
  // promise settles even when the form is gone by then (a dialog closed by onSaved), unlike
  // mutate's own callbacks, so the confirmation is never lost.
  mutateAsync(input: I): Promise<unknown>;
  error: unknown;
  isPending: boolean;
}

/**
 * A create-or-edit form: its values (from `initial`), and its submission. `save()` checks
 * `options.payload(values)` with the procedure's own schema and sends it only when it passes:
 * with `key` (the edited record's id, `{ artistId }`) to the edit procedure, or to the create
 * procedure when `key` is null; it answers whether it sent it. Once saved, a toast says so
 * ("Created “name”.", "Saved “name”."). `mutation` is the one in use, for its error and its
 * pending state, with `dirty` (the values differ from the last saved, or initial, ones) so
 * DialogForm asks before they are lost; the rest is useForm's.
 */
export function useSave<V extends object, C extends z.ZodType, E extends z.ZodType>(
  initial: V,
  key: object | null,
  create: { schema: C; mutation: Mutation<z.output<C>> },
  edit: { schema: E; mutation: Mutation<z.output<E>> },
  options: Omit<FormRules<V>, 'schema'> & { payload: (values: V) => object },
) {
  const mutation = key ? edit.mutation : create.mutation;
  // The create schema says what a record must have, in the edit form too: an edit procedure may
  // take fields as optional, but this form always sends them all.
  const form = useForm(initial, mutation.error, { ...options, schema: create.schema });
  const notify = useToast();
  // The values of the record the form works from (as opened, saved or reloaded): a field whose
  // value differs from its own here is one the user changed.
  const [saved, setSaved] = useState(initial);
  const dirty = differs(form.values, saved);

  function send<I>(target: Mutation<I>, input: I, verb: string, payload: object, sent: V) {
    void target.mutateAsync(input).then(
      (record) => {
        setSaved(sent);
        notify(doneMessage(verb, record ?? payload));
      },
      // The refusal is shown from `mutation.error`.
      () => {},
    );
  }

  /** Sends `values` (by default the form's); see useSave. */
  function save(values: V = form.values): boolean {
    const payload = options.payload(values);
    if (key) {
      const input = form.check(edit.schema, { ...key, ...payload }, values);
      if (input !== null) send(edit.mutation, input, 'Saved', payload, values);
      return input !== null;
    }
    const input = form.check(create.schema, payload, values);
    if (input !== null) send(create.mutation, input, 'Created', payload, values);
    return input !== null;
  }

  /** The form works from `theirs` (another version of the record) from now on, as it shows it. */
  function startFrom(theirs: V) {
    form.setValues(theirs);
    setSaved(theirs);
  }

  /**
   * What the user changed, on top of `theirs`: each field that differs from the record the form
   * worked from keeps the user's value, every other one takes theirs (a field someone else changed
   * meanwhile and the user did not touch is not put back). The form then works from `theirs` and
   * shows the merged values, which are returned for `save`: "Save mine anyway" sends them.
   */
  function mergeOnto(theirs: V): V {
    const mine = form.values as Record<string, unknown>;
    const base = saved as Record<string, unknown>;
    const merged = Object.fromEntries(
      Object.entries(theirs).map(([name, value]) => [
        name,
        differs({ v: mine[name] }, { v: base[name] }) ? mine[name] : value,
      ]),
    ) as V;
    form.setValues(merged);
    setSaved(theirs);
    return merged;
  }
  return { ...form, mutation: { ...mutation, dirty }, dirty, save, startFrom, mergeOnto };
}
