'use client';

import { loginInput } from '@music/api-router/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { Button, ErrorNotice, Notice, TextInput } from '@/components/ui';
import { useForm } from '@/lib/form';
import { safeNext } from '@/lib/navigation';

/** The sign-in form's two fields, and how password managers should fill them. */
const CREDENTIALS = [
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'username' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
] as const;

export function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const { values, field, check } = useForm({ email: '', password: '' }, null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const input = check(loginInput, values);
    if (!input) return;
    setBusy(true);
    try {
      const res = await fetch('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      if (res.ok) {
        queryClient.clear();
        router.replace(safeNext(params.get('next')));
        return;
      }
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      if (res.status === 401) setError('The email or the password is not right.');
      else if (res.status === 429) {
        const wait = Number(res.headers.get('retry-after'));
        setError(
          `Too many failed attempts. Try again in ${Number.isFinite(wait) && wait > 0 ? `${Math.ceil(wait / 60)} minute(s)` : 'a few minutes'}.`,
        );
      } else setError(body.message ?? 'Signing in failed. Try again shortly.');
    } catch {
      setError('The console cannot be reached. Check your connection and try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      {params.get('expired') && <Notice>Your session has ended. Please sign in again.</Notice>}
      <ErrorNotice error={error} />
      {CREDENTIALS.map(({ name, ...input }) => (
        <TextInput key={name} name={name} required {...input} {...field(name)} />
      ))}
      <Button type="submit" variant="primary" busy={busy} className="wide">
        {busy ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
