'use client';

import { EventItem, useUserNames } from '@/app/(console)/activity/_components/event-item';
import { QueryView } from '@/components/ui';
import { keyPrefixesOf } from '@/lib/activity';
import { formatDateTime } from '@/lib/format';
import { homeInputs } from '@/lib/home';
import { trpc } from '@/lib/trpc';
import type { ApiHealth } from '@/server/health';
import { CountCard, HomeSection, totalOf } from './home-parts';

/** The API's readiness in words, and whether it is good news. */
function healthWords(health: ApiHealth): { good: boolean; text: string } {
  if (health.status === 'ok') return { good: true, text: 'The API is ready and its database answers.' };
  if (health.status === 'draining') return { good: false, text: 'This API instance is shutting down.' };
  if (health.database === 'unavailable') return { good: false, text: 'The API cannot reach its database.' };
  if (health.status === 'unavailable') return { good: false, text: 'The API does not answer.' };
  return { good: false, text: `The API says it is not ready (${health.status}).` };
}

function Health({ health }: { health: ApiHealth | undefined }) {
  if (!health) {
    return <p className="muted">The service is checked when this page is opened: reload it to check.</p>;
  }
  const { good, text } = healthWords(health);
  return (
    <p className={`notice notice-${good ? 'success' : 'error'}`}>
      {text}{' '}
      <span className="muted">
        Checked <time dateTime={health.checkedAt}>{formatDateTime(health.checkedAt)}</time>.
      </span>
    </p>
  );
}

/** The most recent events of the log, short (no changes table): what changed lately, and by whom. */
function RecentActivity() {
  const events = trpc.auditEvents.list.useQuery(homeInputs.recentActivity);
  const all = events.data?.data ?? [];
  const names = useUserNames(
    all.flatMap((event) => [
      ...(event.actor.userId ? [event.actor.userId] : []),
      ...(event.target.type === 'user' ? [event.target.id] : []),
    ]),
  );
  const keyPrefixes = keyPrefixesOf(all);
  return (
    <QueryView query={events} isEmpty={(d) => d.data.length === 0} empty="Nothing has changed yet.">
      {(data) => (
        <ol className="events events-short" aria-label="Recent events, newest first">
          {data.data.map((event) => (
            <EventItem key={event.id} event={event} names={names} keyPrefixes={keyPrefixes} short />
          ))}
        </ol>
      )}
    </QueryView>
  );
}

/** An admin: the catalogue's and the accounts' counts, the latest activity, and the service's health. */
export function AdminHome({ health }: { health: ApiHealth | undefined }) {
  const { counts } = homeInputs;
  const songs = trpc.songs.list.useQuery(counts);
  const artists = trpc.artists.list.useQuery(counts);
  const playlists = trpc.playlists.list.useQuery(counts);
  const users = trpc.users.list.useQuery(counts);
  return (
    <>
      <ul className="count-cards" aria-label="The catalogue and its accounts">
        <CountCard href="/songs" count={totalOf(songs)} one="song" many="songs" />
        <CountCard href="/artists" count={totalOf(artists)} one="artist" many="artists" />
        <CountCard href="/playlists" count={totalOf(playlists)} one="playlist" many="playlists" />
        <CountCard href="/users" count={totalOf(users)} one="user" many="users" />
      </ul>
      <div className="home-columns home-columns-wide">
        <HomeSection title="Recent activity" more={{ href: '/activity', label: 'All activity' }}>
          <RecentActivity />
        </HomeSection>
        <HomeSection title="Service health">
          <Health health={health} />
        </HomeSection>
      </div>
    </>
  );
}
