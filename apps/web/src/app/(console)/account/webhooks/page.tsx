'use client';

import Link from 'next/link';
import { useRef, useState } from 'react';
import { WebhookDeliveries } from '@/app/(console)/account/_components/webhook-deliveries';
import { SecretView, WebhookForm } from '@/app/(console)/account/_components/webhook-form';
import { PageHeader } from '@/components/shell/guard';
import { useMe } from '@/components/shell/session';
import { Button, ErrorNotice } from '@/components/ui';
import { useConfirmDelete } from '@/components/ui/confirm-delete';
import { Dialog, restoreFocus } from '@/components/ui/dialog';
import { PageTitle } from '@/components/ui/page-title';
import { PagedTable } from '@/components/ui/paged-table';
import { useToast } from '@/components/ui/toast';
import { trpc } from '@/lib/trpc';
import { type CreatedWebhook, eventLines, MAX_WEBHOOKS, type Webhook, webhookState } from '@/lib/webhooks';
import './webhooks.css';

/** Every webhook of an account fits on one page. */
const LIMIT = MAX_WEBHOOKS;

/** Enabled, or disabled and why: paused by its owner, or after too many failures. */
function State({ hook }: { hook: Webhook }) {
  const { label, reason } = webhookState(hook);
  return (
    <>
      <span className={hook.enabled ? 'badge badge-public' : 'badge'}>{label}</span>
      {reason && <span className="muted"> {reason}</span>}
    </>
  );
}

/**
 * The signed-in user's webhooks (any role): each one's URL, event types, description, state and
 * failures in a row; a new one (its secret shown once, in a dialog of its own); pausing and
 * enabling one again, deleting one; and a webhook's deliveries, with a test ping.
 */
export default function WebhooksPage() {
  const me = useMe();
  const [page, setPage] = useState(1);
  const [making, setMaking] = useState(false);
  const [made, setMade] = useState<CreatedWebhook | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  // The "Deliveries" button that showed them: the focus goes back to it when they are hidden.
  const opener = useRef<HTMLElement | null>(null);
  const notify = useToast();
  const utils = trpc.useUtils();
  const list = trpc.webhooks.list.useQuery(
    { page, limit: LIMIT },
    { placeholderData: (previous) => previous },
  );
  const remove = trpc.webhooks.delete.useMutation({
    onSuccess: (_, { webhookId }) => {
      if (shown === webhookId) setShown(null);
      return utils.webhooks.list.invalidate();
    },
  });
  const confirmDelete = useConfirmDelete(remove, {
    title: 'Delete webhook',
    // `name` is what the toast calls it: "Deleted “https://…”."
    input: (hook: { id: string; name: string }) => ({ webhookId: hook.id }),
    body: (hook) => (
      <>
        Delete the webhook to <strong className="webhook-url">{hook.name}</strong>? Nothing more is sent to
        it, and its deliveries are deleted with it. This cannot be undone.
      </>
    ),
  });
  const toggle = trpc.webhooks.update.useMutation({
    onSuccess: (hook) => {
      notify(
        hook.enabled ? `Enabled the webhook to ${hook.url} again.` : `Paused the webhook to ${hook.url}.`,
      );
      return utils.webhooks.list.invalidate();
    },
  });
  const shownHook = list.data?.data.find((hook) => hook.id === shown);

  function hide() {
    setShown(null);
    restoreFocus(opener.current);
  }
  function onMade(hook: CreatedWebhook) {
    setMaking(false);
    setMade(hook);
    void utils.webhooks.list.invalidate();
  }
  function done() {
    if (made) notify(`Webhook to ${made.url} made. Its secret is no longer shown.`);
    setMade(null);
  }

  return (
    <>
      <PageTitle name="Webhooks" />
      <p className="breadcrumbs">
        <Link href="/account">My account</Link> / Webhooks
      </p>
      <PageHeader title="Webhooks">
        <Button variant="primary" onClick={() => setMaking(true)}>
          New webhook
        </Button>
      </PageHeader>
      <p className="muted">
        A webhook sends the catalogue’s changes to a URL of yours as they happen, signed with its own secret.
        Up to {MAX_WEBHOOKS} webhooks an account. After many failed deliveries in a row a webhook is disabled;
        enable it again once its receiver works.
      </p>
      <ErrorNotice error={toggle.error} title="The webhook was not changed." />
      <PagedTable
        query={list}
        empty="You have no webhooks yet."
        columns={['URL', 'Events', 'Description', 'State', 'Failures in a row', '']}
        row={(hook: Webhook) => (
          <>
            <td data-label="URL" className="webhook-url">
              {hook.url}
            </td>
            <td data-label="Events">
              <ul className="scope-list webhook-events">
                {eventLines(hook.events).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </td>
            <td data-label="Description">
              {hook.description ? <bdi>{hook.description}</bdi> : <span className="muted">none</span>}
            </td>
            <td data-label="State">
              <State hook={hook} />
            </td>
            <td data-label="Failures in a row">{hook.failures}</td>
            <td className="row-actions">
              <Button
                variant="ghost"
                onClick={(event) => {
                  opener.current = event.currentTarget;
                  setShown(shown === hook.id ? null : hook.id);
                }}
                aria-expanded={shown === hook.id}
                aria-label={`Deliveries to ${hook.url}`}
              >
                Deliveries
              </Button>
              <Button
                variant="ghost"
                onClick={() => toggle.mutate({ webhookId: hook.id, enabled: !hook.enabled })}
                busy={toggle.isPending && toggle.variables?.webhookId === hook.id}
                aria-label={hook.enabled ? `Pause ${hook.url}` : `Enable ${hook.url} again`}
              >
                {hook.enabled ? 'Pause' : 'Enable again'}
              </Button>
              <Button
                variant="ghost"
                onClick={() => confirmDelete.ask({ id: hook.id, name: hook.url })}
                aria-label={`Delete ${hook.url}`}
              >
                Delete
              </Button>
            </td>
          </>
        )}
        paging={{ page, limit: LIMIT, setPage }}
      />
      {shownHook && <WebhookDeliveries key={shownHook.id} hook={shownHook} onHide={hide} />}
      <Dialog open={making} title="New webhook" onClose={() => setMaking(false)}>
        {making && (
          <WebhookForm admin={me.role === 'admin'} onMade={onMade} onCancel={() => setMaking(false)} />
        )}
      </Dialog>
      <Dialog open={made !== null} title="Your new webhook" onClose={done}>
        {made && <SecretView hook={made} onDone={done} />}
      </Dialog>
      {confirmDelete.dialog}
    </>
  );
}
