'use client';

import Link from 'next/link';
import { AccountDetailsForm } from '@/app/(console)/account/_components/account-details-form';
import { AccountPasswordForm } from '@/app/(console)/account/_components/account-password-form';
import { ROLE_LABEL } from '@/components/account/user-form';
import { PageHeader } from '@/components/shell/guard';
import { useMe } from '@/components/shell/session';
import { ShortcutSwitch } from '@/components/shell/shortcuts';
import { ThemeSwitch } from '@/components/shell/theme-switch';
import { formatDate } from '@/components/ui';
import { PageTitle } from '@/components/ui/page-title';
import { Facts } from '@/components/ui/record-view';

/** The signed-in user's own account, whatever their role: who they are, and what they may change. */
export default function AccountPage() {
  const me = useMe();
  return (
    <>
      <PageTitle name="My account" />
      <PageHeader title="My account" />
      <section className="card" aria-labelledby="account-facts">
        <h2 id="account-facts">Your account</h2>
        <Facts
          facts={[
            ['Name', me.username],
            ['Email', me.email],
            ['Role', ROLE_LABEL[me.role]],
            [
              'Member since',
              <time key="since" dateTime={me.createdAt}>
                {formatDate(me.createdAt)}
              </time>,
            ],
          ]}
        />
      </section>
      <section className="card" aria-labelledby="account-appearance">
        <h2 id="account-appearance">Appearance and keys</h2>
        <ThemeSwitch />
        <ShortcutSwitch />
        <p className="muted">
          With single-key shortcuts on, <kbd>?</kbd> lists them on any page.
        </p>
      </section>
      <AccountDetailsForm user={me} />
      <AccountPasswordForm user={me} />
      <section className="card" aria-labelledby="account-api-keys">
        <h2 id="account-api-keys">API keys</h2>
        <p>
          Let a program (a script, an integration) use the catalogue’s API as you, within limits you choose.
        </p>
        <Link href="/account/api-keys">Manage your API keys</Link>
      </section>
      <section className="card" aria-labelledby="account-webhooks">
        <h2 id="account-webhooks">Webhooks</h2>
        <p>Have the catalogue’s changes sent to a URL of yours as they happen, such as an integration’s.</p>
        <Link href="/account/webhooks">Manage your webhooks</Link>
      </section>
    </>
  );
}
