import type { components } from './generated/openapi.js';
import { apiPath, type Layer, type Send } from './transport.js';

/** What `POST /auth/login` and `/auth/refresh` answer. */
export type TokenResponse = components['schemas']['TokenResponse'];

/** A signed-in session: keep both tokens to resume it later (`createMusicClient({ session })`). */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

/** Operations that must not carry the caller's token: a refused token would make them 401 too. */
const TOKENLESS = new Set([
  '/auth/login',
  '/auth/refresh',
  '/auth/password-reset',
  '/auth/password-reset/confirm',
]);

/**
 * Who the client calls as: an API key (sent as `Authorization: Bearer <key>`, never renewed), a
 * session (an access token renewed with its refresh token), or no one.
 */
export class Credentials {
  #apiKey: string | undefined;
  #session: SessionTokens | undefined;
  #renewal: Promise<boolean> | undefined;
  readonly #onSession: ((session: SessionTokens | undefined) => void) | undefined;

  constructor(options: {
    apiKey?: string | undefined;
    session?: SessionTokens | undefined;
    onSession?: ((session: SessionTokens | undefined) => void) | undefined;
  }) {
    if (options.apiKey !== undefined && options.session !== undefined)
      throw new TypeError('give an apiKey or a session, not both');
    this.#apiKey = options.apiKey;
    this.#session = options.session;
    this.#onSession = options.onSession;
  }

  /** The token requests carry now. */
  get token(): string | undefined {
    return this.#apiKey ?? this.#session?.accessToken;
  }

  get session(): SessionTokens | undefined {
    return this.#session;
  }

  /** Starts (or ends, with undefined) a session; the API key, if any, is no longer used. */
  setSession(session: SessionTokens | undefined): void {
    this.#apiKey = undefined;
    this.#session = session;
    this.#onSession?.(session);
  }

  /**
   * After a 401 to a request sent with `used`: true when a request may be sent again with a new
   * token. One renewal at a time: every call that got its 401 meanwhile waits for the same one,
   * and a call whose token was already replaced just sends again.
   */
  renew(used: string | undefined, refresh: Refresh): Promise<boolean> {
    const session = this.#session;
    if (!session) return Promise.resolve(false);
    if (used !== session.accessToken) return Promise.resolve(true);
    this.#renewal ??= refresh(session.refreshToken)
      .then((renewed) => {
        // A sign-in or sign-out meanwhile wins over this renewal.
        if (this.#session !== session) return this.#session !== undefined;
        if (renewed === undefined) return false;
        this.setSession(renewed ?? undefined);
        return renewed !== null;
      })
      .finally(() => {
        this.#renewal = undefined;
      });
    return this.#renewal;
  }
}

/**
 * A renewal: the new tokens; null when the refresh token is refused (the session is over);
 * undefined when it could not be done now (a 429 or 503 after its retries, the network), which
 * leaves the session as it was.
 */
type Refresh = (refreshToken: string) => Promise<SessionTokens | null | undefined>;

/** `POST /auth/refresh` sent through `send` (the layers below authentication). */
export function refresher(send: Send, base: URL): Refresh {
  return async (refreshToken) => {
    const response = await send({
      url: new URL(`${base.href.replace(/\/+$/, '')}/auth/refresh`),
      method: 'POST',
      headers: new Headers({ 'Content-Type': 'application/json', Accept: 'application/json' }),
      body: new TextEncoder().encode(JSON.stringify({ refreshToken })).buffer,
      signal: undefined,
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return response.status === 401 ? null : undefined;
    }
    const tokens = (await response.json()) as TokenResponse;
    return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
  };
}

/**
 * Sends the caller's token, and on a 401 of a session renews the access token (through
 * `POST /auth/refresh`, once for all the calls that got a 401 meanwhile) and sends the request
 * again, once. A request with its own `Authorization` is left alone.
 */
export function authentication(credentials: Credentials, base: URL): Layer {
  return (next) => {
    const send = refresher(next, base);
    const refresh: Refresh = (token) => send(token).catch(() => undefined);
    return async (request) => {
      if (request.headers.has('Authorization') || TOKENLESS.has(apiPath(request.url, base))) {
        return next(request);
      }
      const used = credentials.token;
      if (used !== undefined) request.headers.set('Authorization', `Bearer ${used}`);
      const response = await next(request);
      if (response.status !== 401 || credentials.session === undefined) return response;
      if (!(await credentials.renew(used, refresh))) return response;
      const token = credentials.token;
      if (token === undefined) return response;
      await response.body?.cancel();
      request.headers.set('Authorization', `Bearer ${token}`);
      return next(request);
    };
  };
}
