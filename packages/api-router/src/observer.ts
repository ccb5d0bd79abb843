/**
 * What the operations tell the operator's metrics, beyond the requests the HTTP edge counts: how
 * often a search was answered from the cache, and which throttles refused attempts. The API wires
 * it to its Prometheus registry when metrics are on; otherwise nothing is recorded.
 */
export interface Observer {
  /** A song search answered from the search cache (`true`) or computed (`false`). */
  searchCache(hit: boolean): void;
  /**
   * An attempt a throttle refused (429), by throttle: `sign-in-email`, `sign-in-address`, and the
   * limits' scopes (`signup-address`, `reset-email`, `reset-address`).
   */
  throttled(throttle: Throttle): void;
  /** A read that may be a moment old, served by `target`: `primary` or a replica's name. */
  routedRead(target: string): void;
}

/** The throttles there are (`Limit.scope`s and the sign-in ones): their counters start at 0. */
export const THROTTLES = [
  'sign-in-email',
  'sign-in-address',
  'signup-address',
  'reset-email',
  'reset-address',
] as const;

export type Throttle = (typeof THROTTLES)[number];

/** Records nothing: tests, and an API without METRICS_TOKEN. */
export const NO_OBSERVER: Observer = {
  searchCache() {},
  throttled() {},
  routedRead() {},
};
