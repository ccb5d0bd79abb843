'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ApiKeyForm, TokenView } from '@/app/(console)/account/_components/api-key-form';
import { PageHeader } from '@/components/shell/guard';
import { Button, formatDate } from '@/components/ui';
import { useConfirmDelete } from '@/components/ui/confirm-delete';
import { Dialog } from '@/components/ui/dialog';
import { PageTitle } from '@/components/ui/page-title';
import { PagedTable } from '@/components/ui/paged-table';
import { useToast } from '@/components/ui/toast';
import { type ApiKey, type CreatedApiKey, isExpired, MAX_KEYS } from '@/lib/api-keys';
import { formatDateTime } from '@/lib/format';
import { trpc } from '@/lib/trpc';

const LIMIT = 20;

/** A moment of a key's life, or `none` when it has none (never used, never expires). */
function When({ at, none }: { at: string | null; none: string }) {
  if (at === null) return <span className="muted">{none}</span>;
  return <time dateTime={at}>{formatDateTime(at)}</time>;
}

/**
 * The signed-in user's API keys (any role): each key's name, scopes, prefix and dates; a new key
 * (its token shown once, in a dialog of its own); revoking one.
 */
export default function ApiKeysPage() {
  const [page, setPage] = useState(1);
  const [making, setMaking] = useState(false);
  const [made, setMade] = useState<CreatedApiKey | null>(null);
  const notify = useToast();
  const utils = trpc.useUtils();
  const list = trpc.apiKeys.list.useQuery(
    { page, limit: LIMIT },
    { placeholderData: (previous) => previous },
  );
  const revoke = trpc.apiKeys.delete.useMutation({ onSuccess: () => utils.apiKeys.list.invalidate() });
  const confirmRevoke = useConfirmDelete(revoke, {
    title: 'Revoke API key',
    input: (key: ApiKey) => ({ keyId: key.id }),
    body: (key) => (
      <>
        Revoke{' '}
        <strong>
          <bdi>{key.name}</bdi>
        </strong>{' '}
        (<code>{key.prefix}…</code>)? Programs using it are refused from their next request on. This cannot be
        undone.
      </>
    ),
  });

  function onMade(key: CreatedApiKey) {
    setMaking(false);
    setMade(key);
    void utils.apiKeys.list.invalidate();
  }
  function done() {
    if (made) notify(`API key “${made.name}” made. Its token is no longer shown.`);
    setMade(null);
  }

  return (
    <>
      <PageTitle name="API keys" />
      <p className="breadcrumbs">
        <Link href="/account">My account</Link> / API keys
      </p>
      <PageHeader title="API keys">
        <Button variant="primary" onClick={() => setMaking(true)}>
          New API key
        </Button>
      </PageHeader>
      <p className="muted">
        A key lets a program use the catalogue’s API as you, within the scopes you give it. Up to {MAX_KEYS}{' '}
        keys an account. Revoke a key as soon as nothing uses it.
      </p>
      <PagedTable
        query={list}
        empty="You have no API keys yet."
        columns={['Name', 'Scopes', 'Prefix', 'Created', 'Expires', 'Last used', '']}
        row={(key) => (
          <>
            <td data-label="Name">
              <bdi>{key.name}</bdi>
              {isExpired(key) && (
                <>
                  {' '}
                  <span className="badge">Expired</span>
                </>
              )}
            </td>
            <td data-label="Scopes">
              <ul className="scope-list">
                {key.scopes.map((scope) => (
                  <li key={scope}>
                    <code>{scope}</code>
                  </li>
                ))}
              </ul>
            </td>
            <td data-label="Prefix">
              <code>{key.prefix}…</code>
            </td>
            <td data-label="Created">
              <time dateTime={key.createdAt}>{formatDate(key.createdAt)}</time>
            </td>
            <td data-label="Expires">
              <When at={key.expiresAt} none="never" />
            </td>
            <td data-label="Last used">
              <When at={key.lastUsedAt} none="never" />
            </td>
            <td className="row-actions">
              <Button
                variant="ghost"
                onClick={() => confirmRevoke.ask(key)}
                aria-label={`Revoke ${key.name}`}
              >
                Revoke
              </Button>
            </td>
          </>
        )}
        paging={{ page, limit: LIMIT, setPage }}
      />
      <Dialog open={making} title="New API key" onClose={() => setMaking(false)}>
        {making && <ApiKeyForm onMade={onMade} onCancel={() => setMaking(false)} />}
      </Dialog>
      <Dialog open={made !== null} title="Your new API key" onClose={done}>
        {made && <TokenView apiKey={made} onDone={done} />}
      </Dialog>
      {confirmRevoke.dialog}
    </>
  );
}
