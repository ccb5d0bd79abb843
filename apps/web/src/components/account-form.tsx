'use client';

import { type FieldError, passwordSchema, usernameSchema } from '@music/api-router/schemas';
import Link from 'next/link';
import { describeError, toProblem, tryAgainAfter } from '@/lib/errors';
import { messageInWords } from '@/lib/validation-words';

/**
 * What the forms about an account share: sign-up, sign-in, the account page and the admin's user
 * dialogs. Sign-up and sign-in talk to the console's session routes with fetch (the
 * tokens never reach the page), so they read the `/v1` error body those answer with, not a tRPC
 * error.
 */

/** The password rule, as the procedures' schema declares it: said before anything is typed. */
export const PASSWORD_RULE = `${passwordSchema.minLength} to ${passwordSchema.maxLength} characters`;

/** The name's limit, as the procedures' schema declares it (past it, "At most 50 characters"). */
export const NAME_RULE = `Up to ${usernameSchema.maxLength} characters`;

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
  const wait = res.headers.get('retry-after');
  return tryAgainAfter(wait === null ? undefined : Number(wait));
}

export const CONSOLE_UNREACHABLE = 'The console cannot be reached. Check your connection and try again.';

/** `path` with the page to go to afterwards, when it is not the start page. */
export function withNext(path: string, next: string): string {
  return next === '/' ? path : `${path}?next=${encodeURIComponent(next)}`;
}
