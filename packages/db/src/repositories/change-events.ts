import { sql } from 'kysely';
import type { ChangeAudience, Db } from '../schema';
import { runSql } from '../sql';
import { advisoryXactLock } from './locks';

/**
 * The outbox behind the change feed. A write inserts its changes here in its own transaction
 * (`insertChanges`), unnumbered. The sequencer (`sequenceChanges`) later gives each committed,
 * unnumbered row the next position; readers read numbered rows only, by position.
 *
 * Why a reader that follows positions never skips an event, however transactions interleave:
 * a row gets its position only once its transaction has committed (the sequencer cannot see it
 * before), and sequencers run one at a time (a transaction-scoped advisory lock; the next one
 * starts its statement after the previous one committed, so it sees the positions given and
 * the head moved). Each run numbers rows above the head it read, so every position given later
 * is above every position given before: a reader that has seen up to position p, in any
 * snapshot, can only ever be shown new rows above p. Positions are dense (head + 1, + 2, ...),
 * which also lets a reader scan a bounded range.
 *
 * So positions follow the order in which writes became visible, i.e. their commit order (rows
 * that committed between two runs of the sequencer are numbered in their insertion order; no
 * reader could have seen one of them without the others). A sequence value or a transaction id
 * taken at insert time would not do: a transaction that began first but commits last would get
 * a lower number than rows a reader has already passed. Writers never wait for the sequencer:
 * it only updates rows already committed, and the lock is its own.
 */

/** One change, as a write records it. */
export interface NewChange {
  id: string;
  type: string;
  resourceType: string;
  resourceId: string;
  data: unknown;
  audience: ChangeAudience;
  ownerId: string | null;
  redacted: unknown;
}

/**
 * Inserts a write's changes, in order; called with the write's transaction. Every write runs it,
 * so it is one statement compiled once, whatever the number of changes: they travel as one JSON
 * array, unpacked in order (`seq` follows it).
 */
export async function insertChanges(db: Db, changes: readonly NewChange[]): Promise<void> {
  if (changes.length === 0) return;
  await runSql(db, INSERT_CHANGES, [JSON.stringify(changes)]);
}

const INSERT_CHANGES = `insert into change_events
    (id, type, resource_type, resource_id, data, audience, owner_id, redacted)
  select (e->>'id')::uuid, e->>'type', e->>'resourceType', (e->>'resourceId')::uuid, e->'data',
    e->>'audience', (e->>'ownerId')::uuid, nullif(e->'redacted', 'null'::jsonb)
  from jsonb_array_elements($1::jsonb) with ordinality as change(e, n)
  order by n`;

/** At most this many rows are numbered by one run of the sequencer (one statement). */
export const SEQUENCE_BATCH = 5000;

/**
 * Numbers the committed rows not numbered yet, up to `batches` runs of SEQUENCE_BATCH; returns
 * how many it numbered. Cheap when there is nothing to do (one index probe, no lock).
 */
export async function sequenceChanges(db: Db, batches = 4): Promise<number> {
  let numbered = 0;
  for (let run = 0; run < batches; run++) {
    const { rows } = await sql<{ waiting: boolean }>`select exists (
      select 1 from change_events where position is null) as waiting`.execute(db);
    if (!rows[0]?.waiting) break;
    const count = await db.transaction().execute(async (trx) => {
      await advisoryXactLock(trx, 'change-feed-sequencer');
      const result = await sql<{ numbered: string }>`
        with batch as (
          select seq, row_number() over (order by seq) as n
          from change_events where position is null
          order by seq limit ${SEQUENCE_BATCH}
        ), numbered as (
          update change_events e set position = f.head + b.n
          from batch b, change_feed f
          where e.seq = b.seq
          returning e.position
        )
        update change_feed set head = head + (select count(*) from numbered)
        returning (select count(*) from numbered) as numbered`.execute(trx);
      return Number(result.rows[0]?.numbered ?? 0);
    });
    numbered += count;
    if (count < SEQUENCE_BATCH) break;
  }
  return numbered;
}

/** One event as the feed reads it, its data already as this reader may see it. */
export interface ChangeRow {
  position: string;
  id: string;
  type: string;
  at: Date;
  resource_type: string;
  resource_id: string;
  data: unknown;
}

export interface ChangeReader {
  /** Admins read every event in full. */
  admin: boolean;
  /** The reader's user id: `owner` events of theirs are read in full. */
  userId: string;
}

export interface ChangePage {
  rows: ChangeRow[];
  /** The last position given when the page was read (in the same snapshot). */
  head: string;
  /** The last position the retention removed: a reader positioned before it has lost events. */
  horizon: string;
  /** Where this read started: `after`, or the horizon when none was given. */
  from: string;
  /** The last position this read looked at (the page may end before it when it filled). */
  scannedTo: string;
}

/** A read looks at no more than this many positions after its start (each a cheap index step). */
export const SCAN_WINDOW = 10_000;

/**
 * Up to `limit` events after position `after` (or from the oldest kept), in position order,
 * that the reader may see, of `types` when given. One statement, so the rows, the head and the
 * horizon come from one snapshot. Events outside the reader's audience are skipped, or read as
 * their `redacted` form where they have one.
 */
export async function readChanges(
  db: Db,
  args: {
    after: string | undefined;
    types: readonly string[] | undefined;
    reader: ChangeReader;
    limit: number;
  },
): Promise<ChangePage> {
  const types = args.types === undefined ? null : args.types.join(',');
  const { rows } = await sql<ChangeRow & { head: string; horizon: string; start: string }>`
    with feed as (
      select head, horizon, coalesce(${args.after ?? null}::bigint, horizon) as start from change_feed
    )
    select feed.head, feed.horizon, feed.start, e.*
    from feed left join lateral (
      select c.position, c.id, c.type, c.at, c.resource_type, c.resource_id,
        case when ${args.reader.admin}::boolean or c.audience = 'everyone'
          or (c.audience = 'owner' and c.owner_id = ${args.reader.userId}::uuid)
          then c.data else c.redacted end as data
      from change_events c
      where c.position > feed.start and c.position <= feed.start + ${SCAN_WINDOW}
        and (${types}::text is null or c.type = any(string_to_array(${types}::text, ',')))
        and (${args.reader.admin}::boolean or c.audience = 'everyone'
          or (c.audience = 'owner' and (c.owner_id = ${args.reader.userId}::uuid or c.redacted is not null)))
      order by c.position
      limit ${args.limit}
    ) e on true
    order by e.position`.execute(db);
  const first = rows[0];
  if (!first) throw new Error('change_feed has no row');
  // bigint columns: strings from a server, numbers from the embedded database.
  const page = rows
    .filter((row) => row.position !== null)
    .map(({ head: _h, horizon: _z, start: _s, ...row }) => ({ ...row, position: String(row.position) }));
  const last = page.at(-1);
  const end = BigInt(first.start) + BigInt(SCAN_WINDOW);
  const head = BigInt(first.head);
  const scannedTo = page.length === args.limit && last ? last.position : String(end < head ? end : head);
  return {
    rows: page,
    head: String(first.head),
    horizon: String(first.horizon),
    from: String(first.start),
    scannedTo,
  };
}

/** The default of EVENT_RETENTION_DAYS: events are kept 30 days. */
export const EVENT_RETENTION_DAYS = 30;

/**
 * Removes at most `limit` of the oldest numbered events, but only the run of them that is
 * older than `retentionDays` (an event is never removed before an older-positioned one that is
 * kept, so what is kept is always every position after the horizon), and moves the horizon.
 */
export async function removeOldChanges(
  db: Db,
  args: { retentionDays: number; limit: number },
): Promise<number> {
  const { rows } = await sql<{ removed: string }>`
    with oldest as (
      select seq, position, at from change_events
      where position is not null order by position limit ${args.limit}
    ), kept_from as (
      select coalesce(min(position), 9223372036854775807) as position from oldest
      where at >= now() - make_interval(days => ${args.retentionDays})
    ), gone as (
      delete from change_events
      where seq = any(array(select seq from oldest where position < (select position from kept_from)))
      returning position
    )
    update change_feed set horizon = greatest(horizon, coalesce((select max(position) from gone), horizon))
    returning (select count(*) from gone) as removed`.execute(db);
  return Number(rows[0]?.removed ?? 0);
}
