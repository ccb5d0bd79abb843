'use client';

import { emailSchema, patchUserInput, usernameSchema } from '@music/api-router/schemas';
import { type FormEvent, useId, useState } from 'react';
import {
  accountProblem,
  type Problem,
  ProblemNotice,
  SuccessStatus,
} from '@/components/account/account-form';
import { OwnAccountInputs } from '@/components/account/own-account-inputs';
import { useRefreshMe } from '@/components/shell/session';
import { Button, RequiredNote } from '@/components/ui';
import { toProblem } from '@/lib/errors';
import { useFocusFirstInvalid, useForm } from '@/lib/form';
import { trpc, type User } from '@/lib/trpc';
import { useUnsavedWarning } from '@/lib/unsaved';
import { changedFields, needsCurrentPassword, patchInput } from '@/lib/user-changes';

/**
 * The form's fields as `users.patch` takes them: a name and an email an account may have, and the
 * current password, which only a new email needs (the API's rule: a stolen session alone must not
 * move the account to another mailbox).
 */
const detailsSchema = patchUserInput
  .pick({ currentPassword: true })
  .extend({ username: usernameSchema, email: emailSchema });

const NOUNS = {
  username: 'your name',
  email: 'your email address',
  currentPassword: 'your current password',
};

const CURRENT_NEEDED = 'Enter your current password to change your email';

type Values = { username: string; email: string; currentPassword: string };

/** What the schema checks: the current password only when one is typed. */
const payload = ({ currentPassword, ...rest }: Values) => ({
  ...rest,
  ...(currentPassword === '' ? {} : { currentPassword }),
});

function savedWords(changes: { username?: string; email?: string }): string {
  if (changes.username !== undefined && changes.email !== undefined) return 'Your name and email are saved.';
  return changes.email !== undefined ? 'Your email is saved.' : 'Your name is saved.';
}

/** The signed-in user's name and email: only what changed is sent, a new email with their password. */
export function AccountDetailsForm({ user }: { user: User }) {
  const heading = useId();
  const refreshMe = useRefreshMe();
  const patch = trpc.users.patch.useMutation();
  // The last refusal, whose 422 field errors (a wrong current password) show beside the fields.
  const [failure, setFailure] = useState<unknown>(null);
  const { values, setValues, field, check, setFields } = useForm(
    { username: user.username, email: user.email, currentPassword: '' },
    failure,
    { schema: detailsSchema, payload, nouns: NOUNS },
  );
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const invalid = useFocusFirstInvalid<HTMLFormElement>();
  // The current password only confirms: unsaved edits are a name or an email not yet saved.
  useUnsavedWarning(values.username !== user.username || values.email !== user.email);

  async function save(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setFailure(null);
    setSaved(null);
    const input = check(detailsSchema, payload(values));
    if (!input) return invalid.failed();
    const changes = changedFields(user, input);
    if (Object.keys(changes).length === 0) {
      setSaved('Nothing to save: your name and email are as they were.');
      return;
    }
    const needed = needsCurrentPassword(changes, true);
    if (needed && input.currentPassword === undefined) {
      setFields({ currentPassword: CURRENT_NEEDED });
      return invalid.failed();
    }
    let fresh: User;
    try {
      fresh = await patch.mutateAsync(patchInput(user.id, changes, needed, input.currentPassword));
    } catch (error) {
      const refusal = toProblem(error);
      if (refusal.code === 'CONFLICT') setFields({ email: 'Another account has this email address' });
      else if (Object.keys(refusal.fields).length > 0) setFailure(error);
      else setProblem(accountProblem(error));
      return invalid.failed();
    }
    setValues({ username: fresh.username, email: fresh.email, currentPassword: '' });
    setSaved(savedWords(changes));
    await refreshMe(fresh);
  }

  return (
    <section className="card">
      <h2 id={heading}>Name and email</h2>
      <form ref={invalid.ref} aria-labelledby={heading} onSubmit={save} noValidate>
        <ProblemNotice problem={problem} />
        <RequiredNote />
        <OwnAccountInputs field={field} password="current" />
        <SuccessStatus message={saved} />
        <Button type="submit" variant="primary" busy={patch.isPending}>
          Save name and email
        </Button>
      </form>
    </section>
  );
}
