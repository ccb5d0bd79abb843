'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { Suspense, useRef } from 'react';
import { ActivityFilters } from '@/app/(console)/activity/_components/activity-filters';
import { EventItem, useUserNames } from '@/app/(console)/activity/_components/event-item';
import { PageHeader, RoleGate } from '@/components/shell/guard';
import { Button, Empty, ErrorNotice, Loading } from '@/components/ui';
import { PageTitle } from '@/components/ui/page-title';
import { SearchingStatus } from '@/components/ui/paged-table';
import {
  ACTION_WORDS,
  type ActivityView,
  activityInput,
  activityQuery,
  keyPrefixesOf,
  shortId,
  TARGET_WORDS,
} from '@/lib/activity';
import { trpc } from '@/lib/trpc';
import { useUrlState } from '@/lib/url-state';

/** The activity log (admins): every write, newest first, filtered by who, which record and what. */
export default function ActivityPage() {
  return (
    <>
      <PageTitle name="Activity" />
      <RoleGate roles={['admin']}>
        {/* The filters are read from the address (useSearchParams), which a prerendered page reads in the browser. */}
        <Suspense fallback={<Loading />}>
          <Activity />
        </Suspense>
      </RoleGate>
    </>
  );
}

/** What the filters leave in, in words, for the empty log. */
function filterWords(view: ActivityView, userName: string): string {
  const parts = [
    view.user && `by ${userName}`,
    view.type && `about ${view.id ? 'the' : 'any'} ${TARGET_WORDS[view.type].toLowerCase()}`,
    view.id && `with id ${shortId(view.id)}…`,
    view.action && `of the action “${ACTION_WORDS[view.action]}”`,
  ].filter(Boolean);
  return parts.length > 0 ? `No activity ${parts.join(' ')}.` : 'No activity yet.';
}

function Activity() {
  const [view, update] = useUrlState(activityQuery);
  // React Query's own infinite query over the typed client: tRPC's would add a `direction` to
  // the input, which the procedure's strict input refuses.
  const { client } = trpc.useUtils();
  const events = useInfiniteQuery({
    queryKey: ['auditEvents.list', activityInput(view)],
    queryFn: ({ pageParam }) => client.auditEvents.list.query(activityInput(view, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  });
  const all = events.data?.pages.flatMap((page) => page.data) ?? [];
  const userIds = [
    ...(view.user ? [view.user] : []),
    ...all.flatMap((event) => [
      ...(event.actor.userId ? [event.actor.userId] : []),
      ...(event.target.type === 'user' ? [event.target.id] : []),
    ]),
  ];
  const names = useUserNames(userIds);
  const keyPrefixes = keyPrefixesOf(all);
  const userName = view.user ? (names.get(view.user) ?? '…') : '';
  // After "Load more", the focus goes to the first new event, so a keyboard user reads on.
  const list = useRef<HTMLOListElement>(null);
  const loadMore = () => {
    const before = all.length;
    void events.fetchNextPage().then(() => {
      const first = list.current?.children[before] as HTMLElement | undefined;
      if (first) {
        first.tabIndex = -1;
        first.focus();
      }
    });
  };
  const searching = events.isPlaceholderData;

  return (
    <>
      <PageHeader title="Activity" />
      <p className="muted">
        Every change made in the catalogue, newest first: who made it, to what, and how.
      </p>
      <ActivityFilters view={view} update={update} userName={userName} />
      {events.isPending ? (
        <Loading />
      ) : events.isError && all.length === 0 ? (
        <ErrorNotice error={events.error} />
      ) : (
        <>
          <SearchingStatus busy={searching} />
          {all.length === 0 ? (
            !searching && <Empty>{filterWords(view, userName)}</Empty>
          ) : (
            <ol
              ref={list}
              className="events"
              aria-label="Events, newest first"
              aria-busy={searching || undefined}
            >
              {all.map((event) => (
                <EventItem key={event.id} event={event} names={names} keyPrefixes={keyPrefixes} />
              ))}
            </ol>
          )}
          <ErrorNotice error={events.isFetchNextPageError ? events.error : null} />
          {events.hasNextPage ? (
            <div className="pager">
              <Button onClick={loadMore} busy={events.isFetchingNextPage}>
                Load more
              </Button>
            </div>
          ) : (
            all.length > 0 && (
              <p className="pager-summary">
                That is all: {all.length === 1 ? '1 event' : `${all.length} events`}.
              </p>
            )
          )}
        </>
      )}
    </>
  );
}
