'use client';

import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Button, Empty, ErrorNotice, Loading } from '@/components/ui';
import { formatDateTime } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import {
  answerWords,
  canSendAgain,
  type Delivery,
  eventTypeWords,
  outcome,
  pollInterval,
  STATUS_WORDS,
  type Watched,
  type Webhook,
} from '@/lib/webhooks';

/** Deliveries a page of the list shows before "Load more". */
const DELIVERY_PAGE = 20;

function StatusCell({ delivery }: { delivery: Delivery }) {
  const { status, nextAttemptAt } = delivery;
  return (
    <td data-label="Status">
      <span className={`badge delivery-${status}`}>{STATUS_WORDS[status]}</span>
      {status === 'pending' && nextAttemptAt && (
        <span className="muted">
          {' '}
          next attempt <time dateTime={nextAttemptAt}>{formatDateTime(nextAttemptAt)}</time>
        </span>
      )}
    </td>
  );
}

/**
 * A webhook's deliveries, newest first ("Load more" for older ones): each one's event type,
 * status, the receiver's answer (or why there was none), attempts and time; "Send again" on one
 * that is no longer pending, and "Send test ping". After either, the list is read again every
 * second until the attempt is made, and its outcome is said; while any delivery is pending (a
 * retry due), every ten seconds; and whenever "Refresh" is pressed.
 */
export function WebhookDeliveries({ hook, onHide }: { hook: Webhook; onHide: () => void }) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const [watched, setWatched] = useState<Watched | null>(null);
  const [sentAt, setSentAt] = useState<number | null>(null);
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const queryKey = ['webhooks.deliveries', hook.id];
  // React Query's own infinite query over the typed client: tRPC's would add a `direction` to
  // the input, which the procedure's strict input refuses.
  const deliveries = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) =>
      utils.client.webhooks.deliveries.query({
        webhookId: hook.id,
        limit: DELIVERY_PAGE,
        ...(pageParam ? { cursor: pageParam } : {}),
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => {
      const listed = query.state.data?.pages.flatMap((page) => page.data) ?? [];
      const waiting = watched !== null && outcome(watched, listed) === null;
      return pollInterval(listed, waiting ? sentAt : null);
    },
  });
  // A delivery new since a page was read shows on the first page too: each listed once.
  const all = [
    ...new Map(deliveries.data?.pages.flatMap((page) => page.data).map((d) => [d.id, d])).values(),
  ];
  const said = watched && outcome(watched, all);
  const waiting = watched !== null && said === null;

  // The webhook's failures in a row and state change with its deliveries: read them again too.
  const states = all.map((d) => `${d.id}:${d.status}:${d.attempts}`).join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again whenever a delivery changes
  useEffect(() => {
    void utils.webhooks.list.invalidate();
  }, [states, utils]);
  useEffect(() => heading.current?.focus(), []);

  const watch = (delivery: Delivery, label: string) => {
    setWatched({ id: delivery.id, attempts: delivery.attempts, label });
    setSentAt(Date.now());
    void queryClient.invalidateQueries({ queryKey });
  };
  const ping = trpc.webhooks.ping.useMutation({ onSuccess: (made) => watch(made, 'Test ping') });
  const resend = trpc.webhooks.retryDelivery.useMutation({
    onSuccess: (sent) => watch(sent, `${eventTypeWords(sent.eventType)} sent again`),
  });
  const sendAgain = (delivery: Delivery) => {
    ping.reset();
    resend.mutate({ webhookId: hook.id, deliveryId: delivery.id });
  };
  const sendPing = () => {
    resend.reset();
    ping.mutate({ webhookId: hook.id });
  };

  return (
    <section className="card webhook-deliveries" aria-labelledby={headingId}>
      <div className="page-header">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="webhook-url">
          Deliveries to {hook.url}
        </h2>
        <div className="page-actions">
          <Button onClick={sendPing} busy={ping.isPending}>
            Send test ping
          </Button>
          <Button onClick={() => void deliveries.refetch()} busy={deliveries.isFetching}>
            Refresh
          </Button>
          <Button variant="ghost" onClick={onHide}>
            Hide deliveries
          </Button>
        </div>
      </div>
      <ErrorNotice error={ping.error ?? resend.error} />
      <p role="status" aria-live="polite" className={said ? 'notice notice-info' : 'sr-only'}>
        {said ?? (waiting ? 'Sending…' : '')}
      </p>
      {deliveries.isPending ? (
        <Loading />
      ) : deliveries.isError && all.length === 0 ? (
        <ErrorNotice error={deliveries.error} />
      ) : all.length === 0 ? (
        <Empty>Nothing sent yet. Send a test ping to try the URL.</Empty>
      ) : (
        <table className="table" aria-label="Deliveries, newest first">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Answer</th>
              <th scope="col">Attempts</th>
              <th scope="col">Time</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {all.map((delivery) => (
              <tr key={delivery.id}>
                <td data-label="Event">
                  {delivery.eventType === 'webhook.ping' ? (
                    eventTypeWords(delivery.eventType)
                  ) : (
                    <code>{delivery.eventType}</code>
                  )}
                </td>
                <StatusCell delivery={delivery} />
                <td data-label="Answer" className="webhook-answer">
                  {answerWords(delivery)}
                </td>
                <td data-label="Attempts">{delivery.attempts}</td>
                <td data-label="Time">
                  <time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt)}</time>
                </td>
                <td className="row-actions">
                  {canSendAgain(delivery) && (
                    <Button
                      variant="ghost"
                      onClick={() => sendAgain(delivery)}
                      busy={resend.isPending && resend.variables?.deliveryId === delivery.id}
                    >
                      Send again
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorNotice error={deliveries.isFetchNextPageError ? deliveries.error : null} />
      {deliveries.hasNextPage ? (
        <div className="pager">
          <Button onClick={() => void deliveries.fetchNextPage()} busy={deliveries.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      ) : (
        all.length > 0 && (
          <p className="pager-summary">
            That is all: {all.length === 1 ? '1 delivery' : `${all.length} deliveries`}.
          </p>
        )
      )}
    </section>
  );
}
