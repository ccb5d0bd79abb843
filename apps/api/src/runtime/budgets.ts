import type { Logger } from '@music/api-router';
import { addToBudgets, type BudgetTotal, type Db, findOverBudget } from '@music/db';

/** One answer's place in its caller's budget (the RateLimit headers say it). */
export interface BudgetState {
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
  /** False: over budget, refuse with 429. */
  allowed: boolean;
}

/**
 * Whose budget: an API key's own when the caller is a key, else the user when authenticated,
 * else the client address.
 */
export interface BudgetKey {
  userId?: string | undefined;
  apiKeyId?: string | undefined;
  address: string;
}

export interface Budgets {
  /**
   * Counts one request against its caller's budget. Null when that kind of budget is off.
   * Decided in memory (synchronously) unless the caller is near its limit (see createBudgets).
   */
  take(key: BudgetKey): BudgetState | null | Promise<BudgetState>;
  /** Reports a request refused for its budget (metrics), by kind of caller. */
  refused(caller: 'key' | 'user' | 'address'): void;
  /** Stops the background sync after reporting what is still unreported. */
  stop(): Promise<void>;
}

export interface BudgetOptions {
  db: Db;
  log: Logger;
  /** Requests a minute for an authenticated user; 0 turns it off. */
  perUser: number;
  /** Requests a minute for an anonymous client address; 0 turns it off. */
  perAnonymous: number;
  /** How often counts are reported to the database (default 500 ms). */
  syncIntervalMs?: number;
  /** Told of each request refused for its budget (metrics); nothing by default. */
  onRefused?: (caller: 'key' | 'user' | 'address') => void;
}

const WINDOW_MS = 60_000;
/** How long a request near its limit waits for the database before deciding on what it knows. */
const EXACT_WAIT_MS = 500;
/** Callers remembered per instance; beyond it, those with nothing unreported are forgotten. */
const MAX_ENTRIES = 100_000;
const BATCH = 1_000;

/** A caller's entry in one window. */
interface Counted {
  caller: string;
  windowStart: number;
  entry: Entry;
}

interface Entry {
  limit: number;
  /** The count over every instance at this instance's last report (a lower bound: it only grows). */
  known: number;
  /** Admitted here and not yet reported. */
  unsent: number;
  /** Reported in a statement that has not answered yet. */
  sending: number;
  /** Requests near the limit waiting to be reported together (see takeExactly). */
  group?: Group | undefined;
  /** Settles when this caller's last exact report has: the next one is sent after it. */
  flight?: Promise<void> | undefined;
}

/** Requests of one caller reported in one statement, each admitted by its place in the total. */
interface Group {
  size: number;
  /** The total after the report, or undefined when it failed or took longer than EXACT_WAIT_MS. */
  decided: Promise<number | undefined>;
}

/**
 * Request budgets over every instance (version 1.1): fixed one-minute windows, counted per
 * caller in PostgreSQL (`request_budgets`).
 *
 * Most requests are decided in memory: each instance counts locally and, every ~500 ms, adds
 * what it counted to the shared rows in one statement that answers the totals. A caller is
 * refused once `known + counted here` reaches the limit: `known` only grows, so a refusal is
 * never wrong. Left at that, every instance could admit a sync interval's worth of requests the
 * others do not know about, so a burst spread over N instances would overshoot by up to N times
 * that (300 parallel requests against a budget of 100 on two instances: about 200 admitted).
 * Two bounds keep the overshoot within a few percent instead, at a query only where it buys
 * precision:
 * - an instance admits at most `slack` (1% of the limit, at least 1) unreported requests of a
 *   caller; the next one reports them with itself and waits for the total;
 * - within `slack` of the limit every request does so (the total is exact there).
 * A caller within its budget's pace (1% of the limit per 500 ms is 1.2 times the limit a
 * minute) is never queried for. Once the total says a caller is over, it is refused in memory
 * until the window ends, on every instance within one sync (each sync also reads the callers
 * over their limit in the window, a range of an index).
 *
 * Windows are placed on the database's clock (each report answers `now()`), so instances agree on
 * where a minute starts whatever their own clocks say. The database being down never fails a
 * request: counting goes on locally (decided on what is known), reports are retried, and a
 * request near its limit waits at most EXACT_WAIT_MS before deciding on what it knows.
 */
export function createBudgets(options: BudgetOptions): Budgets {
  const { db, log } = options;
  const windows = new Map<number, Map<string, Entry>>();
  let entries = 0;
  let clockOffsetMs = 0;
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let syncing: Promise<void> | undefined;

  const now = () => Date.now() + clockOffsetMs;

  function entryOf(windowStart: number, caller: string, limit: number): Entry {
    let window = windows.get(windowStart);
    if (!window) {
      window = new Map();
      windows.set(windowStart, window);
    }
    let entry = window.get(caller);
    if (!entry) {
      entry = { limit, known: 0, unsent: 0, sending: 0 };
      window.set(caller, entry);
      entries++;
    }
    return entry;
  }

  const used = (entry: Entry) => entry.known + entry.unsent + entry.sending;
  const stateOf = (entry: Entry, resetSeconds: number, allowed: boolean): BudgetState => ({
    limit: entry.limit,
    remaining: Math.max(0, entry.limit - used(entry)),
    resetSeconds,
    allowed,
  });

  /**
   * Reports what each of these callers counted here and has not reported yet (read now, so a
   * report running at the same time never sends the same requests twice), and learns the
   * totals (and the database's clock). On failure the counts go back to be reported again.
   */
  async function report(items: readonly Counted[], evenIfNothing = false): Promise<BudgetTotal[]> {
    const sent: Array<{ item: Counted; delta: number }> = [];
    for (const item of items) {
      const delta = item.entry.unsent;
      if (delta === 0 && !evenIfNothing) continue;
      item.entry.unsent = 0;
      item.entry.sending += delta;
      sent.push({ item, delta });
    }
    if (sent.length === 0) return [];
    const started = Date.now();
    try {
      const { totals, databaseNow } = await addToBudgets(
        db,
        sent.map(({ item, delta }) => ({
          caller: item.caller,
          windowStart: new Date(item.windowStart),
          delta,
        })),
      );
      if (databaseNow) clockOffsetMs = databaseNow.getTime() - (started + Date.now()) / 2;
      const byKey = new Map(sent.map(({ item }) => [`${item.caller}\n${item.windowStart}`, item.entry]));
      for (const { item, delta } of sent) item.entry.sending -= delta;
      for (const total of totals) {
        const entry = byKey.get(`${total.caller}\n${total.windowStart.getTime()}`);
        if (entry) entry.known = Math.max(entry.known, total.count);
      }
      if (failing) log.info('request budgets reach the database again');
      failing = false;
      return totals;
    } catch (error) {
      for (const { item, delta } of sent) {
        item.entry.sending -= delta;
        item.entry.unsent += delta;
      }
      if (!failing) {
        log.warn('request budgets could not be reported; counting locally and retrying', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      failing = true;
      throw error;
    }
  }

  /** Reports every caller's unreported count, and forgets windows that ended. */
  async function sync(): Promise<void> {
    const current = Math.floor(now() / WINDOW_MS) * WINDOW_MS;
    const pending: Counted[] = [];
    for (const [windowStart, window] of windows) {
      for (const [caller, entry] of window) {
        // A caller near its limit is reported by its own exact reports.
        if (entry.unsent > 0 && !entry.group && !entry.flight) pending.push({ caller, windowStart, entry });
      }
    }
    for (let i = 0; i < pending.length; i += BATCH) {
      await report(pending.slice(i, i + BATCH)).catch(() => {});
    }
    if (!failing) await learnOverBudget(current).catch(() => {});
    // The window before the current one is kept a minute longer: its last counts are reported
    // above; nobody asks about it any more.
    for (const [windowStart, window] of windows) {
      if (windowStart < current - WINDOW_MS) {
        entries -= window.size;
        windows.delete(windowStart);
      }
    }
    if (entries > MAX_ENTRIES) forgetIdle();
  }

  const limitOf = (caller: string) => (caller.startsWith('addr:') ? options.perAnonymous : options.perUser);
  const lowest = Math.min(...[options.perUser, options.perAnonymous].filter((limit) => limit > 0));

  /**
   * Learns which callers the instances together have stopped in this window, including those
   * this instance never served: their next request here is refused in memory, not admitted on
   * stale knowledge (the contract stops a caller over budget within 2 s on every instance).
   */
  async function learnOverBudget(windowStart: number): Promise<void> {
    if (!Number.isFinite(lowest)) return;
    const over = await findOverBudget(db, { windowStart: new Date(windowStart), atLeast: lowest });
    for (const { caller, count } of over) {
      const limit = limitOf(caller);
      if (limit <= 0 || count < limit) continue;
      const entry = entryOf(windowStart, caller, limit);
      entry.known = Math.max(entry.known, count);
    }
  }

  /** Bounds memory: forgets callers with nothing unreported, oldest windows first. */
  function forgetIdle() {
    for (const window of [...windows.keys()].sort((a, b) => a - b).map((w) => windows.get(w)!)) {
      for (const [caller, entry] of window) {
        if (entries <= MAX_ENTRIES * 0.9) return;
        if (entry.unsent === 0 && entry.sending === 0) {
          window.delete(caller);
          entries--;
        }
      }
    }
  }

  /**
   * Near the limit: this request is reported with the caller's other unreported ones, and
   * decided on the total that answers. Requests arriving while a report is out wait together
   * for the next one (one statement in flight per caller, however large the burst), and each is
   * admitted by its place: the k-th of n in a report answering T is admitted when
   * T - n + k <= limit. No answer within EXACT_WAIT_MS: decided on what is known.
   */
  async function takeExactly(counted: Counted, resetSeconds: number): Promise<BudgetState> {
    const { entry } = counted;
    entry.unsent += 1;
    const group = entry.group ?? startGroup(counted);
    group.size += 1;
    const place = group.size;
    const total = await group.decided;
    if (total !== undefined) return stateOf(entry, resetSeconds, total - group.size + place <= entry.limit);
    return stateOf(entry, resetSeconds, used(entry) <= entry.limit);
  }

  function startGroup(counted: Counted): Group {
    const { entry } = counted;
    const sent = (entry.flight ?? Promise.resolve()).then(() => {
      // Sent now: later requests form the next group.
      if (entry.group === group) entry.group = undefined;
      return report([counted], true);
    });
    const settled = sent.then(
      () => {},
      () => {},
    );
    entry.flight = settled;
    void settled.then(() => {
      if (entry.flight === settled) entry.flight = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), EXACT_WAIT_MS);
    });
    const total = sent.then(
      (totals) => totals[0]?.count,
      () => undefined,
    );
    const group: Group = {
      size: 0,
      decided: Promise.race([total, late]).finally(() => clearTimeout(timer)),
    };
    entry.group = group;
    return group;
  }

  function take(key: BudgetKey): BudgetState | null | Promise<BudgetState> {
    const caller = key.apiKeyId ? `key:${key.apiKeyId}` : (key.userId ?? `addr:${key.address}`);
    const limit = limitOf(caller);
    if (limit <= 0) return null;
    const at = now();
    const windowStart = Math.floor(at / WINDOW_MS) * WINDOW_MS;
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - at) / 1000));
    const entry = entryOf(windowStart, caller, limit);
    if (used(entry) >= limit) return stateOf(entry, resetSeconds, false);
    const slack = Math.max(1, Math.floor(limit / 100));
    const local = entry.unsent + entry.sending;
    if (failing || stopped || (local < slack && used(entry) + 1 <= limit - slack)) {
      entry.unsent += 1;
      return stateOf(entry, resetSeconds, true);
    }
    return takeExactly({ caller, windowStart, entry }, resetSeconds);
  }

  const interval = options.syncIntervalMs ?? 500;
  function schedule() {
    // Both budgets off: nothing is ever counted, nothing to report.
    if (stopped || !Number.isFinite(lowest)) return;
    timer = setTimeout(() => {
      syncing = sync().finally(() => {
        syncing = undefined;
        schedule();
      });
    }, interval);
    timer.unref();
  }
  schedule();

  return {
    take,
    refused: (caller) => options.onRefused?.(caller),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      await syncing;
      // What this instance admitted since its last report still counts for the others.
      await sync();
    },
  };
}
