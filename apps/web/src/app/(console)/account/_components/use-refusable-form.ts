import { useState } from 'react';

/**
 * A form's values and its errors: its own checks' (`own`, set on submit) and the server's refusal
 * (`refusal.fields`, beside the same fields; the rest of the refusal said above them). Editing a
 * field takes its error away; the form checks everything again on submit.
 */
export function useRefusableForm<V extends object, R extends { fields: Record<string, string> }>(empty: V) {
  const [values, setValues] = useState<V>(empty);
  const [own, setOwn] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<R | null>(null);
  const errors: Record<string, string | undefined> = { ...refusal?.fields, ...own };
  const change = (next: Partial<V>, field: string) => {
    setValues((current) => ({ ...current, ...next }));
    setOwn(({ [field]: _, ...rest }) => rest);
    setRefusal((last) => {
      if (!last || !(field in last.fields)) return last;
      const { [field]: _, ...fields } = last.fields;
      return { ...last, fields };
    });
  };
  return { values, errors, refusal, setRefusal, setOwn, change };
}
