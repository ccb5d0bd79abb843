'use client';

import { useEffect, useRef, useState } from 'react';
import { ProblemNotice, RESET_MAIL_SENT, resetRequestProblem } from '@/components/account/account-form';
import { Button, ErrorNotice, TextInput } from '@/components/ui';
import { Dialog } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/format';
import { trpc, type User } from '@/lib/trpc';

/**
 * An admin's way to let a user choose a new password: a link to hand over (where mail is not set
 * up, or does not arrive), or the mail "Forgot password?" sends. Either works once, for 30
 * minutes; the user's password stays as it is until it is used. `user` opens the dialog.
 */
export function ResetLinkDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Dialog open={user !== null} title={`Reset link for ${user?.username ?? ''}`} onClose={onClose}>
      {user && <ResetLink key={user.id} user={user} onClose={onClose} />}
    </Dialog>
  );
}

/** Focuses and selects the link's field, inside `box`, for copying by hand. */
function selectLinkIn(box: HTMLElement | null) {
  const field = box?.querySelector('input');
  field?.focus();
  field?.select();
}

function ResetLink({ user, onClose }: { user: User; onClose: () => void }) {
  const notify = useToast();
  const make = trpc.users.passwordResetLink.useMutation();
  const mail = trpc.auth.requestPasswordReset.useMutation();
  const [copyRefused, setCopyRefused] = useState(false);
  const linkBox = useRef<HTMLDivElement>(null);
  const link = make.data;

  // A new link takes the focus, selected, ready to copy (the button that made it stays put).
  useEffect(() => {
    if (link) selectLinkIn(linkBox.current);
  }, [link]);

  async function copy() {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopyRefused(false);
      notify('Copied the link.');
    } catch {
      // The browser may refuse (no permission, an insecure context): the link is selected instead.
      selectLinkIn(linkBox.current);
      setCopyRefused(true);
    }
  }

  function mailIt() {
    void mail.mutateAsync({ email: user.email }).then(
      () => {
        notify(RESET_MAIL_SENT);
        onClose();
      },
      // Shown from `mail.error`.
      () => {},
    );
  }

  return (
    <>
      <div className="dialog-body">
        <p>
          A link lets{' '}
          <strong>
            <bdi>{user.username}</bdi>
          </strong>{' '}
          choose a new password: it works once, for 30 minutes. Their password stays as it is until they use
          it; then every session of theirs ends. Make one to hand over yourself, or mail one to {user.email}.
        </p>
        <ErrorNotice error={make.error} />
        <ProblemNotice problem={resetRequestProblem(mail.error)} />
        {link && (
          <div ref={linkBox} style={{ display: 'flex', gap: '0.5rem', alignItems: 'flex-start' }}>
            <div style={{ flex: 1, minWidth: 0 }}>
              <TextInput
                label="Reset link"
                value={link.url}
                readOnly
                spellCheck={false}
                hint={
                  `Works once, until ${formatDateTime(link.expiresAt)} (your time). Hand it to ` +
                  `${user.username} yourself, by a way you trust: whoever opens it can choose their password.`
                }
              />
            </div>
            {/* Level with the field, below its label. */}
            <Button onClick={copy} style={{ marginTop: '1.6rem' }}>
              Copy link
            </Button>
          </div>
        )}
        <div role="status">
          {copyRefused && (
            <p className="field-hint">
              The browser did not let the console copy: the link is selected, press Ctrl+C (⌘C on a Mac).
            </p>
          )}
        </div>
      </div>
      <footer className="dialog-actions">
        <Button onClick={onClose}>Close</Button>
        <Button onClick={mailIt} busy={mail.isPending}>
          Mail a link instead
        </Button>
        <Button variant="primary" onClick={() => make.mutate({ userId: user.id })} busy={make.isPending}>
          {link ? 'Make another link' : 'Make a link'}
        </Button>
      </footer>
    </>
  );
}
