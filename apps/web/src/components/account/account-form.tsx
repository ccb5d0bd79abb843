'use client';

import { type FieldError, passwordSchema, usernameSchema } from '@music/api-router/schemas';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui';
import { describeError, toProblem, tryAgainAfter } from '@/lib/errors';
import { messageInWords } from '@/lib/validation-words';

/**
 * What the forms about an account share: sign-up, sign-in, recovery, the account page and the
 * admin's user dialogs. Sign-up and sign-in talk to the console's session routes with fetch (the
 * tokens never reach the page), so they read the `/v1` error body those answer with, not a tRPC
 * error.
 */

/** The password rule, as the procedures' schema declares it: said before anything is typed. */
export const PASSWORD_RULE = `${passwordSchema.minLength} to ${passwordSchema.maxLength} characters`;

/** The name's limit, as the procedures' schema declares it (past it, "At most 50 characters"). */
export const NAME_RULE = `Up to ${usernameSchema.maxLength} characters`;

/**
 * What a request for a reset link answers, whatever the email: the API never says whether it has
 * an account (that would tell anyone which emails do).
 */
export const RESET_MAIL_SENT =
  'If an account has this email, we have sent it a link to choose a new password. It works for 30 minutes.';

/**
 * Why a request for a reset link was refused, in words (a 429 with when to try again); null when
 * there is none, or when its field errors say it beside the field.
 */
export function resetRequestProblem(error: unknown): Problem | null {
  if (!error) return null;
  const problem = toProblem(error);
  if (problem.code === 'TOO_MANY_REQUESTS') {
    return { words: `Too many requests for a reset link. ${tryAgainAfter(problem.retryAfter)}` };
  }
  if (problem.code === 'VALIDATION_FAILED' && Object.keys(problem.fields).length > 0) return null;
  return { words: describeError(error) };
}

/**
 * A refusal of a change to one's own account, in words: a wrong current password, too often, is
 * the sign-in throttle's 429 (the API counts it as a failed sign-in).
 */
export function accountProblem(error: unknown): Problem {
  const problem = toProblem(error);
  if (problem.code === 'TOO_MANY_REQUESTS') {
    return { words: `Too many wrong passwords. ${tryAgainAfter(problem.retryAfter)}` };
  }
  return { words: describeError(error) };
}

/** The API's 422 `errors[]` as field errors in words (field name -> sentence). */
export function fieldsOf(errors: FieldError[] | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const error of errors ?? []) fields[error.field] ??= messageInWords(error.message);
  return fields;
}

/** A form's refusal in words, with where to go about it. */
export interface Problem {
  words: string;
  link?: { href: string; label: string };
}

/**
 * The element takes the focus when `shown` turns true: a message that replaces the form it ends
 * (its submit button gone), so the focus does not drop to <body>, where a keyboard user would
 * start over.
 */
function useFocusWhen<E extends HTMLElement>(shown: boolean) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}

/**
 * The refusal above a form's fields, announced when it appears. With `focus`, it also takes the
 * focus (when it replaces the form).
 */
export function ProblemNotice({ problem, focus = false }: { problem: Problem | null; focus?: boolean }) {
  const ref = useFocusWhen<HTMLDivElement>(focus && problem !== null);
  if (!problem) return null;
  return (
    <div className="notice notice-error" role="alert" ref={ref} tabIndex={focus ? -1 : undefined}>
      {problem.words}
      {problem.link && (
        <>
          {' '}
          <Link href={problem.link.href}>{problem.link.label}</Link>
        </>
      )}
    </div>
  );
}

/**
 * What a form says it has done. The live region is there before its message, so screen readers
 * announce the message when it appears (a region rendered with its text may go unheard). With
 * `focus`, the message also takes the focus (when it replaces the form).
 */
export function SuccessStatus({ message, focus = false }: { message: string | null; focus?: boolean }) {
  const ref = useFocusWhen<HTMLParagraphElement>(focus && message !== null);
  return (
    <div role="status">
      {message && (
        <p className="notice notice-success" ref={ref} tabIndex={focus ? -1 : undefined}>
          {message}
        </p>
      )}
    </div>
  );
}

/** "Try again in …", from an answer's Retry-After (seconds). */
export function tryAgainIn(res: Response): string {
  const wait = res.headers.get('retry-after');
  return tryAgainAfter(wait === null ? undefined : Number(wait));
}

export const CONSOLE_UNREACHABLE = 'The console cannot be reached. Check your connection and try again.';

/**
 * Signs in through the console's server (`POST /api/session`, which keeps the tokens in its
 * cookies): null when signed in, else why not in words (`refused`: what a 401 means to the user).
 */
export async function signInWith(
  input: { email: string; password: string },
  refused: string,
): Promise<string | null> {
  try {
    const res = await fetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    if (res.ok) return null;
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    if (res.status === 401) return refused;
    if (res.status === 429) return `Too many failed attempts. ${tryAgainIn(res)}`;
    return body.message ?? 'Signing in failed. Try again shortly.';
  } catch {
    return CONSOLE_UNREACHABLE;
  }
}

/** `path` with the page to go to afterwards, when it is not the start page. */
export function withNext(path: string, next: string): string {
  return next === '/' ? path : `${path}?next=${encodeURIComponent(next)}`;
}

/** The full-width submit of the signed-out pages (sign-in, sign-up, recovery): while `busy`, `busyLabel`. */
export function WideSubmit({ busy, busyLabel, label }: { busy: boolean; busyLabel: string; label: string }) {
  return (
    <Button type="submit" variant="primary" busy={busy} className="wide">
      {busy ? busyLabel : label}
    </Button>
  );
}
