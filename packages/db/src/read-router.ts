import { sql } from 'kysely';
import type { Db } from './schema';
import type { ServerConnection } from './server-connection';

/** How a replica looked at its last check. */
export interface ReplicaStatus {
  name: string;
  /** Answered its last check, as a standby, and no read on it has failed since. */
  up: boolean;
  /**
   * At most how many seconds of the primary's writes it lacks: the time since the newest moment
   * at which the primary's WAL position was one it has replayed. Null until first checked, or
   * when it is further behind than the primary positions remembered (a minute).
   */
  lagSeconds: number | null;
}

export interface ReadRouterOptions {
  primary: Db;
  replicas: readonly ServerConnection[];
  /** A replica further behind than this is not read from (REPLICA_MAX_LAG_SECONDS). */
  maxLagSeconds: number;
  /** How often the primary's and each replica's WAL positions are read (default 500 ms). */
  checkEveryMs?: number;
  /** Told when a replica goes down or comes back. */
  onChange?: (status: ReplicaStatus, reason?: string) => void;
}

/** The primary's WAL positions remembered: a minute of checks at the default pace. */
const SAMPLES = 120;
/** A check that takes longer than this counts as a replica that did not answer. */
const CHECK_TIMEOUT_MS = 1_000;

interface Sample {
  at: number;
  lsn: bigint;
}

interface ReplicaState {
  connection: ServerConnection;
  up: boolean;
  replayed: bigint | undefined;
  lagSeconds: number | null;
}

/** `16/B374D848` as a number (a `pg_lsn` is 64 bits written as two hex halves). */
export function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * Chooses, for each read that may be a moment old, a replica that has what the reader must see,
 * or the primary. What it knows of the replicas comes from a check every `checkEveryMs`: the
 * primary's current WAL position (remembered with the time it was read) and each replica's
 * replayed position. A replica is read from when it answered its last check as a standby, no
 * read on it failed since, it is at most `maxLagSeconds` behind, and it has replayed the
 * caller's own last write (`wrote`): that position is kept per user in the primary's
 * `read_positions` and read there at each such read, so a write through any instance is seen by
 * the writer's next read through any other. Replicas take turns (round-robin).
 *
 * Every choice errs towards the primary: the positions known of the replicas are at most one
 * check old (they only move forward), so a replica that passed has replayed at least that much.
 */
export class ReadRouter {
  readonly #options: ReadRouterOptions;
  readonly #replicas: ReplicaState[];
  readonly #samples: Sample[] = [];
  #next = 0;
  /**
   * Where the primary's WAL stood when this instance started (after its migrations): a replica
   * that has not replayed that far lacks this release's schema (a column it reads) and is not
   * read from. A release's reads never meet a replica behind its migrations.
   */
  #floor = 0n;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;
  #stopped = false;

  constructor(options: ReadRouterOptions) {
    this.#options = options;
    this.#replicas = options.replicas.map((connection) => ({
      connection,
      up: false,
      replayed: undefined,
      lagSeconds: null,
    }));
  }

  /** Checks now, then every `checkEveryMs`; resolves after the first check. */
  async start(): Promise<void> {
    await this.check();
    this.#floor = this.#samples.at(-1)?.lsn ?? 0n;
    const every = this.#options.checkEveryMs ?? 500;
    const tick = () => {
      if (this.#stopped) return;
      this.#timer = setTimeout(() => {
        this.#checking = this.check().finally(tick);
      }, every);
      this.#timer.unref();
    };
    tick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#checking;
  }

  /** One round of checks: the primary's position, then every replica's (in parallel). */
  async check(): Promise<void> {
    try {
      const { rows } = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(
        this.#options.primary,
      );
      this.#samples.push({ at: Date.now(), lsn: lsnOf(rows[0]!.lsn) });
      if (this.#samples.length > SAMPLES) this.#samples.shift();
    } catch {
      // The primary away: the replicas are compared with what it last said.
    }
    await Promise.all(this.#replicas.map((replica) => this.#checkReplica(replica)));
  }

  async #checkReplica(replica: ReplicaState): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = sql<{ standby: boolean; lsn: string | null }>`
        select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as lsn
      `.execute(replica.connection.db);
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the check timed out')), CHECK_TIMEOUT_MS);
      });
      const { rows } = await Promise.race([answer, timeout]);
      const row = rows[0]!;
      if (!row.standby || row.lsn === null) {
        // Promoted, or a server that is not a standby at all: reading there could miss writes.
        return this.#set(replica, false, 'not a standby (promoted, or not a replica)');
      }
      replica.replayed = lsnOf(row.lsn);
      replica.lagSeconds = this.#lagOf(replica.replayed);
      this.#set(replica, true);
    } catch (error) {
      this.#set(replica, false, error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }

  /** At most how far behind a replica that has replayed `replayed` is (see ReplicaStatus). */
  #lagOf(replayed: bigint): number | null {
    const now = Date.now();
    for (let i = this.#samples.length - 1; i >= 0; i--) {
      const sample = this.#samples[i]!;
      if (sample.lsn <= replayed) return (now - sample.at) / 1000;
    }
    return null;
  }

  #set(replica: ReplicaState, up: boolean, reason?: string): void {
    const changed = replica.up !== up;
    replica.up = up;
    if (!up) replica.lagSeconds = null;
    if (changed) this.#options.onChange?.(this.#statusOf(replica), reason);
  }

  #statusOf(replica: ReplicaState): ReplicaStatus {
    return { name: replica.connection.name, up: replica.up, lagSeconds: replica.lagSeconds };
  }

  status(): ReplicaStatus[] {
    return this.#replicas.map((replica) => this.#statusOf(replica));
  }

  /**
   * The replica to read from for this caller (by user id; none for an anonymous one), or
   * undefined for the primary: no replica is up and close enough, or none has replayed the
   * caller's last write yet.
   */
  async readerFor(userId: string | undefined): Promise<ServerConnection | undefined> {
    const { maxLagSeconds } = this.#options;
    const usable = this.#replicas.filter(
      (r) => r.up && r.replayed !== undefined && r.lagSeconds !== null && r.lagSeconds <= maxLagSeconds,
    );
    if (usable.length === 0) return undefined;
    const own = userId === undefined ? undefined : await this.#positionOf(userId);
    const needed = own !== undefined && own > this.#floor ? own : this.#floor;
    for (let i = 0; i < usable.length; i++) {
      const replica = usable[(this.#next + i) % usable.length]!;
      if (replica.replayed! >= needed) {
        this.#next = (this.#next + i + 1) % usable.length;
        return replica.connection;
      }
    }
    return undefined;
  }

  /** A read on this replica failed for want of the server: it is not read from until it answers a check again. */
  failed(replica: ServerConnection, error: unknown): void {
    const state = this.#replicas.find((r) => r.connection === replica);
    if (state) this.#set(state, false, error instanceof Error ? error.message : String(error));
  }

  /**
   * Remembers, after a write by this user committed, where the primary's WAL is now (its insert
   * position, which is past the write's commit record even with synchronous_commit off, when
   * that record may not be written out yet): that user's
   * reads go to a replica only once it has replayed this far. Kept until the clean-up removes it
   * (an hour; by then any replica close enough to be read has it).
   */
  async wrote(userId: string): Promise<void> {
    await sql`
      insert into read_positions (user_id, lsn) values (${userId}, pg_current_wal_insert_lsn())
      on conflict (user_id) do update set lsn = excluded.lsn, written_at = now()
    `.execute(this.#options.primary);
  }

  async #positionOf(userId: string): Promise<bigint | undefined> {
    const row = await this.#options.primary
      .selectFrom('read_positions')
      .select(sql<string>`lsn::text`.as('lsn'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? lsnOf(row.lsn) : undefined;
  }
}
