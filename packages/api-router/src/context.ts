import type { TokenService } from '@music/auth';
import { apiKeyMatches, apiKeyPrefix, isApiKeyToken, parseBearer } from '@music/auth';
import { apiKeys, type Db, findSessionUser, isUuid, type Jobs, type SessionUser } from '@music/db';
import type { EntityTagCondition } from './etag';
import { KeyUse } from './key-use';
import { SongSearchCache } from './modules/songs/search-cache';
import { type DeliveryQueue, deliveryQueue } from './modules/webhooks/dispatch';
import type { UrlPolicy } from './modules/webhooks/url-policy';
import { NO_OBSERVER, type Observer } from './observer';
import type { Reads } from './reads';
import { type ApiKeyGrant, isScope } from './scopes';

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface Settings {
  /** Failed sign-ins for one email within the window before it is throttled. */
  loginMaxFailuresPerEmail: number;
  /** Failed sign-ins from one client address within the window before it is throttled. */
  loginMaxFailuresPerAddress: number;
  loginWindowSeconds: number;
  /**
   * A refresh token presented again this soon after it was rotated gets a new pair in the same
   * session instead of revoking it (two workers of one client refreshing at once); 0: never.
   */
  refreshReuseGraceSeconds: number;
  /** Anonymous sign-ups a client address may make in an hour (each costs a hash); 0: no limit. */
  signupsPerAddressPerHour: number;
  /** Password-reset requests per email and per client address in a quarter hour; 0: no limit. */
  passwordResetsPerQuarterHour: number;
  /** How long a password reset link works. */
  passwordResetTtlSeconds: number;
  /** The console's address as people reach it: mailed links point there. */
  consoleUrl: string;
  /** Where webhooks may be sent (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE). */
  webhookUrlPolicy: UrlPolicy;
}

export const DEFAULT_SETTINGS: Settings = {
  loginMaxFailuresPerEmail: 10,
  loginMaxFailuresPerAddress: 100,
  loginWindowSeconds: 15 * 60,
  refreshReuseGraceSeconds: 10,
  signupsPerAddressPerHour: 20,
  passwordResetsPerQuarterHour: 5,
  passwordResetTtlSeconds: 30 * 60,
  consoleUrl: 'http://127.0.0.1:3000',
  webhookUrlPolicy: { allowHttp: false, allowPrivate: false },
};

/** A mail to one person, in plain text. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends mail in the background: `post` returns at once and never throws (a failure is the
 * mailer's to log), so a request never waits for, or reveals anything by, a mail server.
 */
export interface Mailer {
  post(mail: Mail): void;
}

/** Everything a procedure needs that outlives a request; no HTTP types. */
export interface Deps {
  db: Db;
  tokens: TokenService;
  log: Logger;
  settings: Settings;
  mailer: Mailer;
  /** Jobs in PostgreSQL (pg-boss): import runs, and webhook deliveries through `deliveries`. */
  jobs: Jobs;
  /** Where webhook delivery attempts are queued (made by `createDeps`, over `jobs`). */
  deliveries: DeliveryQueue;
  /** Search results over `db`, exact while the catalogue is unchanged (made by `createDeps`). */
  searchCache: SongSearchCache;
  /** When API keys were last used, written in batches (made by `createDeps`). */
  keyUse: KeyUse;
  /** Where search cache use and throttle refusals are reported (metrics); records nothing by default. */
  observer: Observer;
  /** Read replicas for reads that may be a moment old (DATABASE_READ_URLS); absent: the primary only. */
  reads?: Reads | undefined;
}

/** The dependencies, with what is derived from them: the search cache over the same `db`. */
export function createDeps(
  deps: Omit<Deps, 'searchCache' | 'keyUse' | 'deliveries' | 'observer'> & { observer?: Observer },
): Deps {
  const observer = deps.observer ?? NO_OBSERVER;
  return {
    ...deps,
    observer,
    searchCache: new SongSearchCache(deps.db, observer),
    keyUse: new KeyUse(deps.db, deps.log),
    deliveries: deliveryQueue(deps.jobs),
  };
}

/**
 * Who is calling: the user behind a live session or a live API key, read fresh on this request.
 * A key's request names the key (`apiKey`) and the session it was made in is not involved.
 */
export interface Actor {
  user: SessionUser;
  /** The session of a signed-in caller; empty for an API key. */
  sessionId: string;
  /** Set when the caller is an API key: which, and within what scopes. */
  apiKey?: ApiKeyGrant;
}

export interface RequestInfo {
  actor: Actor | null;
  /** The client's network address (for login throttling). */
  clientAddress: string;
  requestId: string;
  /**
   * True when an Authorization header was sent and refused (malformed, bad signature, expired,
   * session ended): every operation answers 401 then, also those open to anonymous callers.
   */
  tokenRefused?: boolean;
  /** The request's `If-Match` (REST, and /trpc mutations): writes check it under their row lock (kernel.ts). */
  ifMatch?: EntityTagCondition;
}

export interface Context extends Deps, RequestInfo {}

/** The context, built from plain values: procedure tests call `createCaller` with it. */
export function createContextInner(deps: Deps, request: RequestInfo): Context {
  return { ...deps, ...request };
}

/**
 * The caller behind an Authorization header, or null (none, malformed, or refused): a valid
 * signature is not enough, the token's session must still be live and its user still exist
 * (logout, theft detection and deletion take effect at once, on every instance). The role is
 * the stored one, not the token's. An API key (`mc_…`) is checked the same way: its row must
 * still exist and be unexpired, its owner too, read on this request.
 */
export async function authenticate(
  deps: Pick<Deps, 'db' | 'tokens' | 'keyUse'>,
  authorization: string | undefined,
): Promise<Actor | null> {
  if (authorization === undefined || authorization === '') return null;
  const token = parseBearer(authorization);
  if (!token) return null;
  if (isApiKeyToken(token)) return authenticateKey(deps, token);
  let claims: ReturnType<TokenService['verifyAccessTokenSync']>;
  try {
    claims = deps.tokens.verifyAccessTokenSync(token);
  } catch {
    return null;
  }
  if (!isUuid(claims.sid) || !isUuid(claims.sub)) return null;
  const user = await findSessionUser(deps.db, claims.sid, claims.sub);
  return user ? { user, sessionId: claims.sid } : null;
}

async function authenticateKey(deps: Pick<Deps, 'db' | 'keyUse'>, token: string): Promise<Actor | null> {
  const prefix = apiKeyPrefix(token);
  if (!prefix) return null;
  const owner = await apiKeys.findKeyOwner(deps.db, prefix);
  if (!owner || !apiKeyMatches(token, owner.tokenHash)) return null;
  deps.keyUse.note(owner.keyId);
  return {
    user: owner.user,
    sessionId: '',
    apiKey: { id: owner.keyId, scopes: owner.scopes.filter(isScope) },
  };
}
