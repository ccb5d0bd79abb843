'use client';

import Link from 'next/link';
import {
  ACTION_WORDS,
  type AuditEvent,
  actorWords,
  changeRows,
  shortId,
  TARGET_WORDS,
  targetHref,
} from '@/lib/activity';
import { formatDateTime } from '@/lib/format';
import { IDS_PER_CALL, idChunks, namesFromAnswers } from '@/lib/names-by-id';
import { trpc } from '@/lib/trpc';

/** The name shown for a user the answer left out (deleted since). */
export const GONE_USER = 'deleted user';

/**
 * Usernames for the user ids a page of the log names (its actors, its accounts), one
 * `users.profiles` call for up to 100 of them (an admin sees every account).
 */
export function useUserNames(ids: readonly string[]): Map<string, string> {
  const chunks = idChunks(ids);
  const answers = trpc.useQueries((t) =>
    chunks.map((chunk) =>
      t.users.profiles({ ids: chunk.join(','), limit: IDS_PER_CALL }, { staleTime: 300_000 }),
    ),
  );
  return namesFromAnswers(chunks, answers, (profile) => profile.username, GONE_USER);
}

/** What the event itself says its record was called (a title, a name, a username), if anything. */
function recordedName(event: AuditEvent): string | null {
  for (const field of ['title', 'name', 'username']) {
    const change = event.changes[field];
    if (change && change !== 'changed') {
      const value = change.after ?? change.before;
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return null;
}

function Target({ event, names }: { event: AuditEvent; names: ReadonlyMap<string, string> }) {
  const { target } = event;
  const named = target.type === 'user' ? (names.get(target.id) ?? recordedName(event)) : recordedName(event);
  const label = `${TARGET_WORDS[target.type]} ${named ? `“${named}”` : shortId(target.id)}`;
  const deleted = event.action.endsWith('.deleted');
  const href = deleted ? null : targetHref(target);
  return href ? (
    <Link href={href} title={target.id}>
      {label}
    </Link>
  ) : (
    <span title={target.id}>{label}</span>
  );
}

/** An event's changes: field, before and after, a password only as "changed". */
function Changes({ event }: { event: AuditEvent }) {
  const rows = changeRows(event.changes);
  if (rows.length === 0) return null;
  return (
    <table className="changes">
      <caption className="sr-only">Changes</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">
            <span className="sr-only">to</span>
          </th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.field}>
            <th scope="row">{row.field}</th>
            <td>{row.before}</td>
            <td aria-hidden="true">→</td>
            <td>{row.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One event of the log: when, who (and through which key), what it did, to what, and its
 * changes (not when `short`: a summary's line).
 */
export function EventItem({
  event,
  names,
  keyPrefixes,
  short = false,
}: {
  event: AuditEvent;
  names: ReadonlyMap<string, string>;
  keyPrefixes: ReadonlyMap<string, string>;
  short?: boolean;
}) {
  const actor = actorWords(event.actor, names, keyPrefixes);
  return (
    <li className="event">
      <p className="event-head">
        <time dateTime={event.at}>{formatDateTime(event.at)}</time>
        <strong>{ACTION_WORDS[event.action]}</strong>
        <Target event={event} names={names} />
        <span>
          by{' '}
          {event.actor.userId === null ? (
            <span className="muted">{actor.who}</span>
          ) : (
            <span title={event.actor.userId}>{actor.who}</span>
          )}
          {actor.via && <span className="muted"> {actor.via}</span>}
        </span>
      </p>
      {!short && <Changes event={event} />}
    </li>
  );
}
