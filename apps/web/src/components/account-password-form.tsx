'use client';

import { loginInput, passwordSchema, updateUserInput } from '@music/api-router/schemas';
import { type FormEvent, useId, useState } from 'react';
import { z } from 'zod';
import {
  checkPassword,
  PASSWORD_RULE,
  type Problem,
  ProblemNotice,
  SuccessStatus,
  WRONG_PASSWORD,
} from '@/components/account-form';
import { PasswordInput } from '@/components/password-input';
import { useRefreshMe } from '@/components/session';
import { Button, RequiredNote } from '@/components/ui';
import { describeError } from '@/lib/errors';
import { useFocusFirstInvalid, useForm } from '@/lib/form';
import { trpc, type User } from '@/lib/trpc';
import { differs, useUnsavedWarning } from '@/lib/unsaved';

/**
 * The form's fields: the current password as sign-in takes it, the new one by the account's
 * rule, and the new one again.
 */
const passwordChange = z.strictObject({
  current: loginInput.shape.password,
  password: passwordSchema,
  confirm: z.string().min(1),
});

type Values = { current: string; password: string; confirm: string };

const NOUNS = {
  current: 'your current password',
  password: 'a new password',
  confirm: 'the new password again',
};

/** What the schema cannot see: how the three passwords stand to each other. */
function refine(values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.password !== '' && values.password === values.current) {
    errors.password = 'The new password is the same as the current one';
  }
  if (values.confirm !== '' && values.confirm !== values.password) {
    errors.confirm = 'This is not the same as the new password';
  }
  return errors;
}

const EMPTY: Values = { current: '', password: '', confirm: '' };

/** A new password for the signed-in user: their current one, then the new one twice. */
export function AccountPasswordForm({ user }: { user: User }) {
  const heading = useId();
  const refreshMe = useRefreshMe();
  const update = trpc.users.update.useMutation();
  const { values, setValues, field, check, setFields } = useForm(EMPTY, null, {
    schema: passwordChange,
    nouns: NOUNS,
    refine,
  });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const invalid = useFocusFirstInvalid<HTMLFormElement>();
  useUnsavedWarning(differs(values, EMPTY));

  async function save(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setSaved(null);
    const input = check(passwordChange, values);
    if (!input) return invalid.failed();
    setPending(true);
    try {
      const current = await checkPassword(user.email, input.current, {
        wrong: () => {
          setFields({ current: WRONG_PASSWORD });
          invalid.failed();
        },
        problem: setProblem,
      });
      if (!current) return;
      // The account as the API has it now (the sign-in's answer): the replace keeps a name or an
      // email changed meanwhile, in another tab or by an admin.
      const { username, email } = current;
      const replace = updateUserInput.safeParse({
        userId: user.id,
        username,
        email,
        password: input.password,
      });
      if (!replace.success) {
        setProblem({ words: 'Your account could not be read. Reload the page and try again.' });
        return;
      }
      let fresh: User;
      try {
        fresh = await update.mutateAsync(replace.data);
      } catch (error) {
        setProblem({ words: describeError(error) });
        return;
      }
      setValues(EMPTY);
      setSaved('Your password is changed. Use the new one when you next sign in.');
      await refreshMe(fresh);
    } finally {
      setPending(false);
    }
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
          name="current"
          autoComplete="current-password"
          {...field('current')}
        />
        <PasswordInput
          label="New password"
          name="password"
          autoComplete="new-password"
          hint={PASSWORD_RULE}
          {...field('password')}
        />
        <PasswordInput
          label="Confirm new password"
          name="confirm"
          autoComplete="new-password"
          {...field('confirm')}
        />
        <SuccessStatus message={saved} />
        <Button type="submit" variant="primary" busy={pending}>
          Change password
        </Button>
      </form>
    </section>
  );
}
