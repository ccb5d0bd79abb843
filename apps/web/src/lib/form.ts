'use client';

import { useState } from 'react';
import type { z } from 'zod';
import { toProblem, validate } from '@/lib/errors';

/**
 * A form's field errors: the client-side ones from the procedure's zod schema, else the server's
 * 422 `errors[]` for the last attempt. `check` validates and returns the parsed input (or null).
 * A field also shows an error reported on one of its items (`artistIds.2`).
 */
function useFormErrors(serverError: unknown) {
  const [fields, setFields] = useState<Record<string, string>>({});
  const server = serverError ? toProblem(serverError).fields : {};
  const errorOf = (name: string): string | undefined => {
    const all = { ...server, ...fields };
    return all[name] ?? Object.entries(all).find(([key]) => key.startsWith(`${name}.`))?.[1];
  };
  function check<S extends z.ZodType>(schema: S, values: unknown): z.output<S> | null {
    const result = validate(schema, values);
    setFields(result.ok ? {} : result.fields);
    return result.ok ? result.data : null;
  }
  return { errorOf, check, setFields };
}

/** A form's values, and `set(name)`: the change handler of the text control for `name`. */
function useFormValues<V extends object>(initial: V) {
  const [values, setValues] = useState(initial);
  const set = (name: keyof V) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));
  return { values, setValues, set };
}

/** The names of a form's text values (those a text control edits). */
type TextName<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/**
 * A form's values and their errors (useFormValues, useFormErrors); `field(name)` gives the text
 * control for `name` its value, its change handler and its error.
 */
export function useForm<V extends object>(initial: V, serverError: unknown) {
  const errors = useFormErrors(serverError);
  const { values, setValues, set } = useFormValues(initial);
  const field = (name: TextName<V>) => ({
    value: values[name],
    onChange: set(name),
    error: errors.errorOf(name),
  });
  return { ...errors, values, setValues, field };
}

/** Blank text as null: an optional text left empty clears the value. */
export function orNull(text: string): string | null {
  return text.trim() === '' ? null : text;
}

interface Mutation<I> {
  // A method, so tRPC's mutate (which takes the procedure's input, and options) fits.
  mutate(input: I): void;
  error: unknown;
  isPending: boolean;
}

/**
 * A create-or-edit form: its values (from `initial`), and its submission. `save(values)` checks
 * them with the procedure's own schema and sends them only when they pass: with `key` (the edited
 * record's id, `{ artistId }`) to the edit procedure, or to the create procedure when `key` is null.
 * `mutation` is the one in use, for its error and its pending state; the rest is useForm's.
 */
export function useSave<V extends object, C extends z.ZodType, E extends z.ZodType>(
  initial: V,
  key: object | null,
  create: { schema: C; mutation: Mutation<z.output<C>> },
  edit: { schema: E; mutation: Mutation<z.output<E>> },
) {
  const mutation = key ? edit.mutation : create.mutation;
  const form = useForm(initial, mutation.error);
  function save(payload: object): void {
    if (key) {
      const input = form.check(edit.schema, { ...key, ...payload });
      if (input) edit.mutation.mutate(input);
    } else {
      const input = form.check(create.schema, payload);
      if (input) create.mutation.mutate(input);
    }
  }
  return { ...form, mutation, save };
}
