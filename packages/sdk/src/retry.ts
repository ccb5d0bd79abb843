import type { Layer, Outgoing } from './transport.js';

export interface RetryOptions {
  /** Tries of one call in all, the first included (default 3). */
  attempts?: number;
  /**
   * The longest wait the client accepts (default 60 s). A `Retry-After` asking for more is not
   * waited for: the 429 or 503 is answered at once, for the caller to decide.
   */
  maxWaitSeconds?: number;
  /** Told before each wait, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  method: string;
  url: string;
  status: number;
  /** The try that was refused (1 for the first). */
  attempt: number;
  /** How long the client waits before the next try. */
  delayMs: number;
}

/** Methods that change nothing more when repeated (RFC 9110): safe to send again. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRIED_STATUSES = new Set([429, 503]);

/** Seconds (or an HTTP date) of `Retry-After` as milliseconds from now; undefined without one. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before try `attempt + 1`: what `Retry-After` asks, plus a random part (up to a quarter
 * of the wait, 250 ms to 2 s) so that callers refused together do not all come back in the same
 * instant; without the header, exponential from half a second, fully jittered.
 */
export function backoffMs(asked: number | undefined, attempt: number, random = Math.random): number {
  if (asked === undefined) return Math.round(random() * 500 * 2 ** (attempt - 1));
  const spread = Math.min(2_000, Math.max(250, asked / 4));
  return Math.round(asked + random() * spread);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Only a request that may be sent twice is: an idempotent method, or one with an `Idempotency-Key`. */
export function mayRepeat(request: Outgoing): boolean {
  return IDEMPOTENT_METHODS.has(request.method) || request.headers.has('Idempotency-Key');
}

/**
 * 429 (over the request budget) and 503 (the database unavailable) are tried again after the
 * `Retry-After` they carry, a bounded number of times, when the request may be repeated.
 */
export function retries(options: RetryOptions = {}): Layer {
  const attempts = Math.max(1, options.attempts ?? 3);
  const maxWaitMs = (options.maxWaitSeconds ?? 60) * 1000;
  return (next) => async (request) => {
    for (let attempt = 1; ; attempt++) {
      const response = await next(request);
      if (!RETRIED_STATUSES.has(response.status) || attempt >= attempts || !mayRepeat(request)) {
        return response;
      }
      const asked = retryAfterMs(response.headers.get('Retry-After'));
      if (asked !== undefined && asked > maxWaitMs) return response;
      const delayMs = backoffMs(asked, attempt);
      await response.body?.cancel();
      options.onRetry?.({
        method: request.method,
        url: request.url.href,
        status: response.status,
        attempt,
        delayMs,
      });
      await sleep(delayMs, request.signal);
    }
  };
}
