import type { Db } from '@music/db';

/** A read replica as the routing sees it: its name (metrics, logs) and its handle. */
export interface ReadReplica {
  name: string;
  db: Db;
}

/**
 * Where reads that may be a moment old are served (`ReadRouter` of `@music/db` over
 * DATABASE_READ_URLS). Absent: every read is the primary's, as with one server.
 */
export interface Reads {
  /** A replica that has what this caller must see, or undefined for the primary. */
  readerFor(userId: string | undefined): Promise<ReadReplica | undefined>;
  /** A read failed there for want of the server: not read from until it answers again. */
  failed(replica: ReadReplica, error: unknown): void;
  /** This user's write committed: their next reads wait for a replica that has it. */
  wrote(userId: string): Promise<void>;
}
