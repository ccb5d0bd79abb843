'use client';

import { passwordSchema, patchUserInput } from '@music/api-router/schemas';
import { type FormEvent, useId, useState } from 'react';
import { z } from 'zod';
import {
  accountProblem,
  PASSWORD_RULE,
  type Problem,
  ProblemNotice,
  SuccessStatus,
} from '@/components/account/account-form';
import { Button, RequiredNote } from '@/components/ui';
import { PasswordInput } from '@/components/ui/password-input';
import { toProblem } from '@/lib/errors';
import { useFocusFirstInvalid, useForm } from '@/lib/form';
import { trpc, type User } from '@/lib/trpc';
import { differs, useUnsavedWarning } from '@/lib/unsaved';

/**
 * The form's fields: the current password as `users.patch` takes it (the API checks it, as a
 * sign-in), the new one by the account's rule, and the new one again.
 */
const passwordChange = z.strictObject({
  currentPassword: patchUserInput.shape.currentPassword.unwrap(),
  password: passwordSchema,
  confirm: z.string().min(1),
});

type Values = { currentPassword: string; password: string; confirm: string };

const NOUNS = {
  currentPassword: 'your current password',
  password: 'a new password',
  confirm: 'the new password again',
};

/** What the schema cannot see: how the three passwords stand to each other. */
function refine(values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.password !== '' && values.password === values.currentPassword) {
    errors.password = 'The new password is the same as the current one';
  }
  if (values.confirm !== '' && values.confirm !== values.password) {
    errors.confirm = 'This is not the same as the new password';
  }
  return errors;
}

const EMPTY: Values = { currentPassword: '', password: '', confirm: '' };

const CHANGED = 'Your password is changed. Your other devices were signed out; this one stays signed in.';

/**
 * A new password for the signed-in user: their current one, then the new one twice. The API ends
 * every other session of the account; this one goes on.
 */
export function AccountPasswordForm({ user }: { user: User }) {
  const heading = useId();
  const patch = trpc.users.patch.useMutation();
  // The last refusal, whose 422 field errors (a wrong current password) show beside the fields.
  const [failure, setFailure] = useState<unknown>(null);
  const { values, setValues, field, check } = useForm(EMPTY, failure, {
    schema: passwordChange,
    nouns: NOUNS,
    refine,
  });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const invalid = useFocusFirstInvalid<HTMLFormElement>();
  useUnsavedWarning(differs(values, EMPTY));

  async function save(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setFailure(null);
    setSaved(null);
    const input = check(passwordChange, values);
    if (!input) return invalid.failed();
    try {
      await patch.mutateAsync({
        userId: user.id,
        password: input.password,
        currentPassword: input.currentPassword,
      });
    } catch (error) {
      if (Object.keys(toProblem(error).fields).length > 0) setFailure(error);
      else setProblem(accountProblem(error));
      return invalid.failed();
    }
    setValues(EMPTY);
    setSaved(CHANGED);
  }

  return (
    <section className="card">
      <h2 id={heading}>Change password</h2>
      <form ref={invalid.ref} aria-labelledby={heading} onSubmit={save} noValidate>
        <ProblemNotice problem={problem} />
        <RequiredNote />
        {/* The account the password belongs to, for password managers (they save the new one). */}
        <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
        <PasswordInput
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          {...field('currentPassword')}
        />
        <PasswordInput
          label="New password"
          name="password"
          autoComplete="new-password"
          hint={`${PASSWORD_RULE}. Your other devices are signed out when it changes.`}
          {...field('password')}
        />
        <PasswordInput
          label="Confirm new password"
          name="confirm"
          autoComplete="new-password"
          {...field('confirm')}
        />
        <SuccessStatus message={saved} />
        <Button type="submit" variant="primary" busy={patch.isPending}>
          Change password
        </Button>
      </form>
    </section>
  );
}
