'use client';

import { confirmResetInput } from '@music/api-router/schemas';
import Link from 'next/link';
import { type FormEvent, useEffect, useState } from 'react';
import {
  PASSWORD_RULE,
  type Problem,
  ProblemNotice,
  SuccessStatus,
  WideSubmit,
} from '@/components/account/account-form';
import { PasswordInput } from '@/components/ui/password-input';
import { describeError, toProblem } from '@/lib/errors';
import { useFocusFirstInvalid, useForm } from '@/lib/form';
import { type ResetToken, readResetToken, withoutFragment } from '@/lib/reset-token';
import { trpc } from '@/lib/trpc';

const ASK_AGAIN = { href: '/forgot-password', label: 'Ask for a new link.' };
const UNUSABLE: Problem = { words: 'This link is unknown, expired or already used.', link: ASK_AGAIN };
const NO_TOKEN: Problem = {
  words: 'This address has no reset token: open the link from your mail whole, as it came.',
  link: ASK_AGAIN,
};
const DONE =
  'Your new password is set. Every session of your account was signed out, on every device: sign in with the new password.';

/**
 * The page a reset link opens (`/reset-password#token=…`). The token is read from the fragment,
 * which the browser never sends, then taken out of the address (history.replaceState), so it is
 * not left in the history or on the screen. Null until the page has read it (the server cannot).
 */
function useResetToken(): ResetToken | null {
  const [token, setToken] = useState<ResetToken | null>(null);
  useEffect(() => {
    const take = () => {
      const found = readResetToken(window.location.hash);
      if (window.location.hash !== '')
        window.history.replaceState(null, '', withoutFragment(window.location));
      // An emptied fragment (the replace above fires no event, a person editing it does) keeps
      // the token already read.
      setToken((current) => (found.kind === 'none' && current !== null ? current : found));
    };
    take();
    // A link opened while this page shows (a mail client reusing the tab) changes only the fragment.
    window.addEventListener('hashchange', take);
    return () => window.removeEventListener('hashchange', take);
  }, []);
  return token;
}

export function ResetPasswordForm() {
  const link = useResetToken();
  if (link === null) return null;
  if (link.kind === 'none') return <NoticeOnly problem={NO_TOKEN} />;
  if (link.kind === 'malformed') return <NoticeOnly problem={UNUSABLE} />;
  return <NewPasswordForm key={link.token} token={link.token} />;
}

function NoticeOnly({ problem }: { problem: Problem }) {
  return (
    <div className="notice notice-info">
      {problem.words} {problem.link && <Link href={problem.link.href}>{problem.link.label}</Link>}
    </div>
  );
}

/** The new password, sent with the token: once set, every session of the account ends. */
function NewPasswordForm({ token }: { token: string }) {
  const reset = trpc.auth.resetPassword.useMutation();
  const { field, check, values } = useForm({ password: '' }, reset.error, {
    schema: confirmResetInput,
    payload: (v) => ({ token, ...v }),
    nouns: { password: 'a new password' },
  });
  const [done, setDone] = useState(false);
  const invalid = useFocusFirstInvalid<HTMLFormElement>();
  const refusal = reset.error ? toProblem(reset.error) : null;
  // The API's 422 on `token`: this link will never work, the form has no use left.
  const spent = refusal?.fields.token !== undefined;
  const problem =
    refusal && !spent && Object.keys(refusal.fields).length === 0
      ? { words: describeError(reset.error) }
      : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = check(confirmResetInput, { token, ...values });
    if (!input) return invalid.failed();
    void reset.mutateAsync(input).then(
      () => setDone(true),
      // Shown from `reset.error`: a field's beside it.
      () => invalid.failed(),
    );
  }

  return (
    <>
      <SuccessStatus message={done ? DONE : null} focus />
      {done && (
        <p>
          <Link href="/sign-in">Sign in</Link>
        </p>
      )}
      <ProblemNotice problem={spent ? UNUSABLE : null} focus />
      {!done && !spent && (
        <form ref={invalid.ref} onSubmit={submit} noValidate>
          <ProblemNotice problem={problem} />
          <PasswordInput
            label="New password"
            name="password"
            autoComplete="new-password"
            hint={`${PASSWORD_RULE}. Setting it signs your account out everywhere.`}
            {...field('password')}
          />
          <WideSubmit busy={reset.isPending} busyLabel="Setting your password…" label="Set new password" />
        </form>
      )}
    </>
  );
}
