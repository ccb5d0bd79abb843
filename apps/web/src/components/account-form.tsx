'use client';

import { type FieldError, passwordSchema, usernameSchema } from '@music/api-router/schemas';
import Link from 'next/link';
import type { User } from '@/lib/trpc';
import { messageInWords } from '@/lib/validation-words';

/**
 * What the forms about one's own account share: sign-up, sign-in and the account page. They talk
 * to the console's session routes with fetch (the tokens never reach the page), so they read the
 * `/v1` error body those answer with, not a tRPC error.
 */

/** The password rule, as the procedures' schema declares it. */
export const PASSWORD_RULE = `${passwordSchema.minLength} to ${passwordSchema.maxLength} characters`;

/** The name's limit, as the procedures' schema declares it (past it, "At most 50 characters"). */
export const NAME_RULE = `Up to ${usernameSchema.maxLength} characters`;

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

/** The refusal above a form's fields, announced when it appears. */
export function ProblemNotice({ problem }: { problem: Problem | null }) {
  if (!problem) return null;
  return (
    <div className="notice notice-error" role="alert">
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
 * announce the message when it appears (a region rendered with its text may go unheard).
 */
export function SuccessStatus({ message }: { message: string | null }) {
  return <div role="status">{message && <p className="notice notice-success">{message}</p>}</div>;
}

/** "Try again in …", from an answer's Retry-After (seconds). */
export function tryAgainIn(res: Response): string {
  const wait = Number(res.headers.get('retry-after'));
  return `Try again in ${Number.isFinite(wait) && wait > 0 ? `${Math.ceil(wait / 60)} minute(s)` : 'a few minutes'}.`;
}

export const CONSOLE_UNREACHABLE = 'The console cannot be reached. Check your connection and try again.';

/** `path` with the page to go to afterwards, when it is not the start page. */
export function withNext(path: string, next: string): string {
  return next === '/' ? path : `${path}?next=${encodeURIComponent(next)}`;
}

/** Where a form shows why a password check stopped a change. */
export interface PasswordRefusal {
  /** The password was not theirs: mark the field (WRONG_PASSWORD) and focus it. */
  wrong(): void;
  /** Anything else (throttled, unreachable), above the form. */
  problem(problem: Problem): void;
}

/**
 * Checks the signed-in user's password before a change to their account. The API replaces an
 * account with whatever password it is sent (PUT /users/{id} asks for no current one), so a
 * mistyped "current" password would quietly become the new one. The console asks the API the
 * one way it can, by signing in with it (POST /api/session): a wrong one is the sign-in's 401,
 * throttled like any failed sign-in; a right one renews the session (the old one is ended).
 * Resolves to the account as it is now, or to null once `refusal` has been told why not.
 */
export async function checkPassword(
  email: string,
  password: string,
  refusal: PasswordRefusal,
): Promise<User | null> {
  let res: Response;
  try {
    res = await fetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
  } catch {
    refusal.problem({ words: CONSOLE_UNREACHABLE });
    return null;
  }
  const body = (await res.json().catch(() => ({}))) as { user?: User; message?: string };
  if (res.ok && body.user) return body.user;
  if (res.status === 401) refusal.wrong();
  else {
    refusal.problem({
      words:
        res.status === 429
          ? `Too many wrong passwords. ${tryAgainIn(res)}`
          : (body.message ?? 'Your password could not be checked. Try again shortly.'),
    });
  }
  return null;
}

export const WRONG_PASSWORD = 'This is not your current password';
