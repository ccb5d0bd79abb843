'use client';

import { createUserInput, type FieldError } from '@music/api-router/schemas';
import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import {
  CONSOLE_UNREACHABLE,
  fieldsOf,
  type Problem,
  ProblemNotice,
  tryAgainIn,
  WideSubmit,
  withNext,
} from '@/components/account/account-form';
import { OwnAccountInputs } from '@/components/account/own-account-inputs';
import { RequiredNote } from '@/components/ui';
import { useFocusFirstInvalid, useForm } from '@/lib/form';
import { safeNext } from '@/lib/navigation';

const NOUNS = { username: 'your name', email: 'your email address', password: 'a password' };

/**
 * A new listener account, signed in at once: the console's /api/session/sign-up makes it through
 * the API's public sign-up and sets the session's cookies, one click for the person.
 */
export function SignUpForm() {
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const next = safeNext(params.get('next'));
  const signIn = withNext('/sign-in', next);
  const { values, field, check, setFields } = useForm({ username: '', email: '', password: '' }, null, {
    schema: createUserInput,
    nouns: NOUNS,
  });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const invalid = useFocusFirstInvalid<HTMLFormElement>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const input = check(createUserInput, values);
    if (!input) {
      invalid.failed();
      return;
    }
    setBusy(true);
    try {
      const res = await fetch('/api/session/sign-up', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      const body = (await res.json().catch(() => ({}))) as {
        signedIn?: false;
        message?: string;
        errors?: FieldError[];
      };
      if (res.ok && body.signedIn === false) {
        setProblem({
          words: 'Your account is ready, but signing you in failed just now.',
          link: { href: signIn, label: 'Sign in with it.' },
        });
      } else if (res.ok) {
        queryClient.clear();
        router.replace(next);
      } else if (res.status === 409) {
        setProblem({
          words: 'An account with this email exists.',
          link: { href: signIn, label: 'Sign in instead.' },
        });
      } else if (res.status === 422 && body.errors?.length) {
        setFields(fieldsOf(body.errors));
        invalid.failed();
      } else if (res.status === 429) {
        setProblem({ words: `Too many attempts from this network. ${tryAgainIn(res)}` });
      } else {
        setProblem({ words: body.message ?? 'Creating the account failed. Try again shortly.' });
      }
    } catch {
      setProblem({ words: CONSOLE_UNREACHABLE });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <form ref={invalid.ref} onSubmit={submit} noValidate>
        <ProblemNotice problem={problem} />
        <RequiredNote />
        <OwnAccountInputs field={field} password="new" />
        <WideSubmit busy={busy} busyLabel="Creating your account…" label="Create account" />
      </form>
      <p className="muted">
        Already have an account? <Link href={signIn}>Sign in</Link>
      </p>
    </>
  );
}
