import createClient, { type Client } from 'openapi-fetch';
import { MusicApiError } from './errors.js';
import { EtagCache, etagReads } from './etag.js';
import type { components, paths } from './generated/openapi.js';
import { type ItemOf, type ListParams, type ListPath, listUrl, pages } from './paginate.js';
import { type RetryOptions, retries } from './retry.js';
import { authentication, Credentials, type SessionTokens } from './session.js';
import { compose, defaultHeaders, idempotencyKeys, outgoingOf, sender } from './transport.js';

export type User = components['schemas']['User'];
export type ChangeEvent = components['schemas']['ChangeEvent'];

/** A read of the change feed: its events, and the cursor to go on from (keep it). */
export interface ChangePage {
  events: ChangeEvent[];
  cursor: string;
}

export interface ChangesOptions {
  /** Where to go on from: the `cursor` of a page read before; omitted: the oldest event kept. */
  after?: string;
  /** Only events of these types, comma-separated: `song.*,playlist.deleted`. */
  types?: string;
  /** Events per read, 1 to 1000 (the API's default: 100). */
  limit?: number;
  /**
   * When the feed has nothing new: wait this long and ask again, until `signal` aborts. Omitted:
   * the iteration ends there.
   */
  pollMs?: number;
  signal?: AbortSignal;
}

export interface MusicClientOptions {
  /** Where the API is served, without `/v1`: `https://api.example.com`. */
  baseUrl: string;
  /** An API key (`mc_...`), sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** A session to resume (the tokens `signIn` got, kept by `onSession`). */
  session?: SessionTokens;
  /**
   * Told whenever the session changes: signed in, tokens renewed (the refresh token is single
   * use: keep the new one), or ended (undefined: signed out, or the refresh token refused).
   */
  onSession?: (session: SessionTokens | undefined) => void;
  /** Backoff on 429 and 503; `false` answers them at once. */
  retry?: RetryOptions | false;
  /** Revalidation of reads with their ETag: how many URLs to remember (default 500); `false`: none. */
  etags?: { maxEntries?: number } | false;
  /** Headers sent with every request (a `User-Agent`, say). */
  headers?: Record<string, string>;
  /** How long one try may take (default 30 s). */
  timeoutMs?: number;
  /** The `fetch` to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

export interface MusicClientExtras {
  /**
   * Every item of a list, fetched page by page as the loop asks for them:
   * `for await (const song of client.list('/songs', { query: { search: 'blue' } }))`.
   */
  list<P extends ListPath>(
    path: P,
    params?: ListParams<P>,
    init?: { signal?: AbortSignal },
  ): AsyncGenerator<ItemOf<P>>;
  /**
   * The change feed (`GET /events`), read on and on: each read with events, and a last one
   * without any when its cursor moved past events this caller may not see. Keep each page's
   * `cursor` once its events are handled, and start from it next time: every event comes once.
   * A cursor older than the events kept throws a MusicApiError with `code` `GONE`.
   */
  changes(options?: ChangesOptions): AsyncGenerator<ChangePage>;
  /** Signs in with email and password (`POST /auth/login`); later calls carry the session. */
  signIn(credentials: { email: string; password: string }): Promise<User>;
  /** Ends the session (`POST /auth/logout`) and forgets it. */
  signOut(): Promise<void>;
  /** The current session's tokens, if signed in. */
  readonly session: SessionTokens | undefined;
}

/** The typed client: openapi-fetch's `GET`/`POST`/... for every operation, and the helpers. */
export type MusicClient = Client<paths> & MusicClientExtras;

/**
 * A client of the `/v1` API for one caller (an API key, a session, or anonymous). Requests go
 * through, in order: an `Idempotency-Key` for creations, ETag revalidation of reads, the
 * caller's token (renewed on a 401 of a session), backoff on 429/503, then `fetch`.
 */
export function createMusicClient(options: MusicClientOptions): MusicClient {
  const base = new URL(`${options.baseUrl.replace(/\/+$/, '')}/v1`);
  const credentials = new Credentials(options);
  const etags = options.etags === false ? undefined : new EtagCache(options.etags?.maxEntries);
  const send = compose(
    [
      defaultHeaders(options.headers ?? {}),
      idempotencyKeys(base),
      ...(etags ? [etagReads(etags)] : []),
      authentication(credentials, base),
      ...(options.retry === false ? [] : [retries(options.retry)]),
    ],
    sender(options.fetch ?? ((request) => fetch(request)), options.timeoutMs ?? 30_000),
  );
  const api = createClient<paths>({
    baseUrl: base.href.replace(/\/+$/, ''),
    fetch: async (request) => send(await outgoingOf(request)),
  });

  const startSession = (session: SessionTokens | undefined) => {
    // What one caller read is not another's to see.
    etags?.clear();
    credentials.setSession(session);
  };

  const extras: MusicClientExtras = {
    async *list(path, params, init) {
      const first = listUrl(base, path, params as Parameters<typeof listUrl>[2]);
      for await (const page of pages(send, first, init?.signal)) {
        for (const item of page) yield item as ItemOf<typeof path>;
      }
    },
    async *changes(options = {}) {
      let after = options.after;
      for (;;) {
        const query = { after, types: options.types, limit: options.limit };
        const { data, error, response } = await api.GET('/events', {
          params: { query },
          ...(options.signal ? { signal: options.signal } : {}),
        });
        if (data === undefined) throw MusicApiError.from(response, error);
        const moved = data.nextCursor !== after;
        after = data.nextCursor;
        if (data.data.length > 0 || moved) yield { events: data.data, cursor: data.nextCursor };
        // The same cursor back: nothing new yet (a page without events but a new cursor passed
        // only events this caller may not see: read on).
        if (moved) continue;
        if (options.pollMs === undefined || options.signal?.aborted) return;
        await pause(options.pollMs, options.signal);
        if (options.signal?.aborted) return;
      }
    },
    async signIn({ email, password }) {
      const { data, error, response } = await api.POST('/auth/login', { body: { email, password } });
      if (data === undefined) throw MusicApiError.from(response, error);
      startSession({ accessToken: data.accessToken, refreshToken: data.refreshToken });
      return data.user;
    },
    async signOut() {
      if (credentials.session === undefined) return;
      const { error, response } = await api.POST('/auth/logout');
      // Already over (401) is over all the same.
      if (!response.ok && response.status !== 401) throw MusicApiError.from(response, error);
      startSession(undefined);
    },
    get session() {
      return credentials.session;
    },
  };
  return Object.defineProperties(api, Object.getOwnPropertyDescriptors(extras)) as MusicClient;
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
