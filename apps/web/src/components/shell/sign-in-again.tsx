'use client';

import { loginInput } from '@music/api-router/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { signInWith } from '@/components/account/account-form';
import { useMe } from '@/components/shell/session';
import { Button, ErrorNotice, Notice } from '@/components/ui';
import { Dialog } from '@/components/ui/dialog';
import { PasswordInput } from '@/components/ui/password-input';
import { sessionResumed, useSessionEnded } from '@/lib/session-ended';
import { issueInWords } from '@/lib/validation-words';

/**
 * The session ended while a form held unsaved edits (session-ended.ts): sign in again here, as
 * the same account, and carry on where one was; the edits stay in their form, to be saved again.
 * Another account signs in on the sign-in page (the link), as edits made as one account are not
 * another's to save.
 */
export function SignInAgain() {
  const ended = useSessionEnded();
  return (
    <Dialog open={ended} title="Sign in again" onClose={sessionResumed}>
      {ended && <SignInAgainForm />}
    </Dialog>
  );
}

function SignInAgainForm() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const here = `${window.location.pathname}${window.location.search}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const parsed = loginInput.safeParse({ email: me.email, password });
    if (!parsed.success) {
      setFieldError(issueInWords(parsed.error.issues[0]!, { noun: 'your password' }));
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    const refused = await signInWith(parsed.data, 'The password is not right.');
    setBusy(false);
    if (refused !== null) {
      setError(refused);
      return;
    }
    sessionResumed();
    // What failed for want of a session is asked for again; the forms keep what they hold.
    await queryClient.invalidateQueries();
  }

  return (
    <form onSubmit={submit} noValidate>
      <div className="dialog-body">
        <Notice>
          Your session has ended. Sign in again to carry on: what you typed on this page is kept, and you save
          it once you are back.
        </Notice>
        <ErrorNotice error={error} />
        <p>
          Signed in as <bdi>{me.email}</bdi>.{' '}
          <a href={`/sign-in?next=${encodeURIComponent(here)}`}>Sign in as someone else</a>
        </p>
        <PasswordInput
          label="Password"
          name="password"
          required
          autoComplete="current-password"
          value={password}
          error={fieldError}
          onChange={(e) => {
            setPassword(e.target.value);
            if (fieldError) setFieldError(undefined);
          }}
        />
        {/* The account's email, for password managers; after the password, which the dialog focuses first. */}
        <input type="email" name="email" autoComplete="username" value={me.email} readOnly hidden />
      </div>
      <footer className="dialog-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Sign in
        </Button>
      </footer>
    </form>
  );
}
