'use client';

import { loginInput } from '@music/api-router/schemas';
import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { signInWith, WideSubmit, withNext } from '@/components/account/account-form';
import { ErrorNotice, Notice, TextInput } from '@/components/ui';
import { PasswordInput } from '@/components/ui/password-input';
import { useForm } from '@/lib/form';
import { safeNext } from '@/lib/navigation';

export function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const { values, field, check } = useForm({ email: '', password: '' }, null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = safeNext(params.get('next'));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const input = check(loginInput, values);
    if (!input) return;
    setBusy(true);
    const refused = await signInWith(input, 'The email or the password is not right.');
    if (refused === null) {
      queryClient.clear();
      router.replace(next);
      return;
    }
    setError(refused);
    setBusy(false);
  }

  return (
    <>
      <form onSubmit={submit} noValidate>
        {params.get('expired') && <Notice>Your session has ended. Please sign in again.</Notice>}
        <ErrorNotice error={error} />
        {/* `username` and `current-password`: what password managers fill a sign-in with. */}
        <TextInput
          label="Email"
          name="email"
          type="email"
          required
          autoComplete="username"
          {...field('email')}
        />
        <PasswordInput
          label="Password"
          name="password"
          required
          autoComplete="current-password"
          {...field('password')}
        />
        <WideSubmit busy={busy} busyLabel="Signing in…" label="Sign in" />
      </form>
      <p className="muted">
        <Link href="/forgot-password">Forgot password?</Link>
      </p>
      <p className="muted">
        New here? <Link href={withNext('/sign-up', next)}>Create an account</Link>
      </p>
    </>
  );
}
