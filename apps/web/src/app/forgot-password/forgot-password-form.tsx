'use client';

import { requestResetInput } from '@music/api-router/schemas';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import {
  ProblemNotice,
  RESET_MAIL_SENT,
  resetRequestProblem,
  SuccessStatus,
  WideSubmit,
} from '@/components/account/account-form';
import { Button, TextInput } from '@/components/ui';
import { useFocusFirstInvalid, useForm } from '@/lib/form';
import { trpc } from '@/lib/trpc';

/**
 * Asks the API to mail a reset link. The answer is the same whether the email has an account or
 * not, and so are these words: the page must not tell anyone which emails have accounts.
 */
export function ForgotPasswordForm() {
  const request = trpc.auth.requestPasswordReset.useMutation();
  const { values, field, check } = useForm({ email: '' }, request.error, {
    schema: requestResetInput,
    nouns: { email: 'the email address of your account' },
  });
  const [sent, setSent] = useState(false);
  const invalid = useFocusFirstInvalid<HTMLFormElement>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = check(requestResetInput, values);
    if (!input) return invalid.failed();
    void request.mutateAsync(input).then(
      () => setSent(true),
      // The refusal is shown from `request.error`, a field's beside it.
      () => invalid.failed(),
    );
  }

  return (
    <>
      <SuccessStatus message={sent ? RESET_MAIL_SENT : null} focus />
      {sent ? (
        <>
          <p className="muted">Nothing came? Check the address you typed, and your spam folder.</p>
          <Button
            onClick={() => {
              request.reset();
              setSent(false);
            }}
          >
            Send another link
          </Button>
        </>
      ) : (
        <form ref={invalid.ref} onSubmit={submit} noValidate>
          <p className="muted">
            Enter the email address of your account: we send it a link to choose a new password.
          </p>
          <ProblemNotice problem={resetRequestProblem(request.error)} />
          <TextInput label="Email" name="email" type="email" autoComplete="email" {...field('email')} />
          <WideSubmit busy={request.isPending} busyLabel="Sending…" label="Send me a link" />
        </form>
      )}
      <p className="muted">
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </>
  );
}
