'use client';

import { AccountDetailsForm } from '@/components/account-details-form';
import { AccountPasswordForm } from '@/components/account-password-form';
import { PageHeader } from '@/components/guard';
import { PageTitle } from '@/components/page-title';
import { Facts } from '@/components/record-view';
import { useMe } from '@/components/session';
import { formatDate } from '@/components/ui';
import { ROLE_LABEL } from '@/components/user-form';

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
      <AccountDetailsForm user={me} />
      <AccountPasswordForm user={me} />
    </>
  );
}
