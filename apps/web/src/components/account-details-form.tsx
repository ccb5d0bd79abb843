'use client';

import { updateUserInput } from '@music/api-router/schemas';
import { type FormEvent, useId, useState } from 'react';
import {
  checkPassword,
  type Problem,
  ProblemNotice,
  SuccessStatus,
  WRONG_PASSWORD,
} from '@/components/account-form';
import { PasswordInput } from '@/components/password-input';
import { useRefreshMe } from '@/components/session';
import { Button, RequiredNote, TextInput } from '@/components/ui';
import { describeError, toProblem } from '@/lib/errors';
import { useFocusFirstInvalid, useForm } from '@/lib/form';
import { trpc, type User } from '@/lib/trpc';
import { useUnsavedWarning } from '@/lib/unsaved';

/**
 * Your own account is saved through the API's full replace (PUT /users/{id}), which takes a
 * password with the name and the email: here the current one, sent as it is. The role is left
 * out, so it stays what it is.
 */
const detailsInput = updateUserInput.omit({ role: true });

const NOUNS = { username: 'your name', email: 'your email address', password: 'your current password' };

const PASSWORD_HINT =
  'Your password confirms the change and stays as it is. To change it, use “Change password” below.';

/** The signed-in user's name and email, saved with their current password. */
export function AccountDetailsForm({ user }: { user: User }) {
  const heading = useId();
  const refreshMe = useRefreshMe();
  const update = trpc.users.update.useMutation();
  // The last refusal of the replace, whose 422 field errors show beside the fields.
  const [failure, setFailure] = useState<unknown>(null);
  const { values, setValues, field, check, setFields } = useForm(
    { username: user.username, email: user.email, password: '' },
    failure,
    { schema: detailsInput, payload: (v) => ({ userId: user.id, ...v }), nouns: NOUNS },
  );
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const invalid = useFocusFirstInvalid<HTMLFormElement>();
  // The current password only confirms: unsaved edits are a name or an email not yet saved.
  useUnsavedWarning(values.username !== user.username || values.email !== user.email);

  async function save(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setFailure(null);
    setSaved(null);
    const input = check(detailsInput, { userId: user.id, ...values });
    if (!input) return invalid.failed();
    setPending(true);
    try {
      const current = await checkPassword(user.email, input.password, {
        wrong: () => {
          setFields({ password: WRONG_PASSWORD });
          invalid.failed();
        },
        problem: setProblem,
      });
      if (!current) return;
      let fresh: User;
      try {
        fresh = await update.mutateAsync(input);
      } catch (error) {
        const refusal = toProblem(error);
        if (refusal.code === 'CONFLICT') {
          setFields({ email: 'Another account has this email address' });
          invalid.failed();
          return;
        }
        setFailure(error);
        setProblem({ words: describeError(error) });
        if (Object.keys(refusal.fields).length > 0) invalid.failed();
        return;
      }
      setValues({ username: fresh.username, email: fresh.email, password: '' });
      setSaved('Your name and email are saved.');
      await refreshMe(fresh);
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card">
      <h2 id={heading}>Name and email</h2>
      <form ref={invalid.ref} aria-labelledby={heading} onSubmit={save} noValidate>
        <ProblemNotice problem={problem} />
        <RequiredNote />
        <TextInput label="Name" name="username" autoComplete="name" {...field('username')} />
        <TextInput label="Email" name="email" type="email" autoComplete="email" {...field('email')} />
        <PasswordInput
          label="Current password"
          name="password"
          autoComplete="current-password"
          hint={PASSWORD_HINT}
          {...field('password')}
        />
        <SuccessStatus message={saved} />
        <Button type="submit" variant="primary" busy={pending}>
          Save name and email
        </Button>
      </form>
    </section>
  );
}
