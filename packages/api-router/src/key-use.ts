import { apiKeys, type Db } from '@music/db';

/**
 * When API keys were last used, written in batches: a request that uses a key notes it here (in
 * memory, no write), and the notes go to the database every `intervalMs` (one statement for all
 * the keys used meanwhile), when a listing of keys is read on this instance, and when the instance
 * stops. So `lastUsedAt` is at most one interval behind on other instances, and a key used
 * 1,000 times a second costs one write per interval, not 1,000.
 */
export class KeyUse {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: { warn(message: string, fields?: Record<string, unknown>): void },
  ) {}

  note(keyId: string): void {
    this.pending.set(keyId, new Date());
  }

  /** Writes what was noted so far; a failed write keeps the notes for the next try. */
  async flush(): Promise<void> {
    await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = apiKeys
      .recordKeyUse(this.db, batch)
      .catch((error: unknown) => {
        for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
        this.log.warn('api key use not recorded', { keys: batch.size, error: String(error) });
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
