'use client';

import { useState } from 'react';
import type { z } from 'zod';
import { toProblem, validate } from '@/lib/errors';

/**
 * A form's field errors: the client-side ones from the procedure's zod schema, else the server's
 * 422 `errors[]` for the last attempt. `check` validates and returns the parsed input (or null).
 * A field also shows an error reported on one of its items (`artistIds.2`).
 */
export function useFormErrors(serverError: unknown) {
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
export function useFormValues<V extends object>(initial: V) {
  const [values, setValues] = useState(initial);
  const set = (name: keyof V) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));
  return { values, setValues, set };
}

interface Mutation<I> {
  // A method, so tRPC's mutate (which takes the procedure's input, and options) fits.
  mutate(input: I): void;
  error: unknown;
  isPending: boolean;
}

/**
 * A create-or-edit form's submission: `save(values)` checks them with the procedure's own schema
 * (the edit procedure's when `editing`) and sends them only when they pass. `mutation` is the one
 * in use, for its error and its pending state.
 */
export function useSave<C extends z.ZodType, E extends z.ZodType>(
  editing: boolean,
  create: { schema: C; mutation: Mutation<z.output<C>> },
  edit: { schema: E; mutation: Mutation<z.output<E>> },
) {
  const mutation = editing ? edit.mutation : create.mutation;
  const form = useFormErrors(mutation.error);
  function save(values: unknown): void {
    if (editing) {
      const input = form.check(edit.schema, values);
      if (input) edit.mutation.mutate(input);
    } else {
      const input = form.check(create.schema, values);
      if (input) create.mutation.mutate(input);
    }
  }
  return { ...form, mutation, save };
}
