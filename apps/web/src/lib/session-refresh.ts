/**
 * Refreshing the session from the browser, one refresh at a time for all of a user's tabs.
 *
 * The API's refresh tokens are single use: presenting one a second time is taken as theft and
 * revokes the whole session. With several tabs open, and several console instances behind a
 * balancer without sticky sessions, the only party that sees every request of one browser is the
 * browser itself. So the console's server routes never refresh; a call answered 401 waits here
 * for the browser-wide lock (the Web Locks API, shared by every tab of this origin), and the tab
 * that holds it refreshes, unless another tab already did since the failed call was sent (the
 * session's generation cookie moved), then tries the call once more.
 */

export const REFRESH_LOCK = 'music-console-session-refresh';
export const REFRESH_URL = '/api/session/refresh';
export const GENERATION_COOKIE = 'mc_session';

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface RefreshDependencies {
  fetch: Fetch;
  /** Runs `work` while holding the browser-wide lock `name` (navigator.locks.request). */
  lock: <T>(name: string, work: () => Promise<T>) => Promise<T>;
  /** The session generation now (the readable cookie), undefined when there is none. */
  generation: () => string | undefined;
}

/**
 * A fetch for the tRPC client: a 401 triggers at most one refresh per browser and one retry of
 * the call. When the refresh is refused (the session is over) or cannot be made (the service is
 * away), its answer stands in for the call's, so the caller sees why.
 */
export function createSessionFetch(deps: RefreshDependencies): Fetch {
  // Within this tab, calls failing together share one refresh.
  let pending: Promise<Response | null> | undefined;

  function refresh(seen: string | undefined): Promise<Response | null> {
    pending ??= deps
      .lock(REFRESH_LOCK, async () => {
        // Another tab refreshed while this call was out: its new cookies are ours too.
        if (deps.generation() !== seen) return null;
        const res = await deps.fetch(REFRESH_URL, { method: 'POST', credentials: 'same-origin' });
        return res.ok ? null : res;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  return async (input, init) => {
    const seen = deps.generation();
    const res = await deps.fetch(input, init);
    if (res.status !== 401) return res;
    const failure = await refresh(seen);
    if (failure) return failure;
    return deps.fetch(input, init);
  };
}

/** The value of a cookie in `document.cookie` form (`a=1; b=2`). */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      // A malformed value (another script's cookie mangled) must not break every call.
      return value.join('=');
    }
  }
  return undefined;
}

/**
 * The browser's own dependencies. Web Locks exist only in secure contexts (HTTPS, or localhost):
 * elsewhere tabs cannot coordinate, and a refresh is single-flight within each tab only.
 */
export function browserSessionFetch(): Fetch {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return createSessionFetch({
    fetch: (input, init) => fetch(input, init),
    lock: locks
      ? <T>(name: string, work: () => Promise<T>) => locks.request(name, work) as Promise<T>
      : <T>(_name: string, work: () => Promise<T>) => work(),
    generation: () => readCookie(document.cookie, GENERATION_COOKIE),
  });
}
