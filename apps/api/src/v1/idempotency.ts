import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, type Context, type Logger, type Operation, refusesCaller } from '@music/api-router';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type Db,
  findIdempotencyKey,
  type IdempotentAnswer,
  releaseIdempotencyKey,
} from '@music/db';
import { JSON_TYPE, sendBody } from '../http/http';

/** 1 to 255 visible ASCII characters and spaces, not only spaces. */
const KEY = /^[\x20-\x7e]{1,255}$/;

function invalidKey(message: string): AppError {
  return new AppError('VALIDATION_FAILED', 'The Idempotency-Key header is not valid', {
    errors: [{ field: 'Idempotency-Key', message }],
  });
}

/** The request's key, undefined without one; a malformed one is a 422 on `Idempotency-Key`. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header) || !KEY.test(header) || header.trim() === '') {
    throw invalidKey('Must be 1 to 255 printable ASCII characters');
  }
  return header;
}

/** A key's first answer, sent again. */
export interface Replay {
  kind: 'replay';
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** A key this request now holds: it either stores its answer or gives the key up. */
export interface Claimed {
  kind: 'new';
  /** Stores a 2xx answer for repeats; any other answer releases the key. Never throws. */
  complete(answer: IdempotentAnswer): Promise<void>;
  /** Gives the key up (the request failed). Never throws. */
  release(): Promise<void>;
}

export interface BeginArgs {
  caller: string;
  key: string;
  method: string;
  path: string;
  /** sha256 of the raw body, hex. */
  bodyHash: string;
}

export interface Idempotency {
  begin(args: BeginArgs): Promise<Replay | Claimed>;
}

/** Headers of a first answer that a replay sends again. */
const KEPT_HEADERS = ['Location', 'ETag', 'Cache-Control'] as const;

/**
 * Idempotency keys kept in PostgreSQL, so a repeat reaching any instance finds the first answer.
 * The first request of a key claims it (a `pending` row: exactly one claimer wins), runs, and
 * stores its answer; a repeat of the same method, path and body replays that answer, one with
 * another path or body is a 422, and one while the first still runs is a 409.
 *
 * Only successful (2xx) answers are kept. A request that failed (a 4xx, a 5xx, an exception)
 * changed nothing the client needs to be protected from repeating, and keeping its error would
 * make the key useless: a client that fixes the request (or waits out a 503) must be able to
 * retry with the same key and have it run. So a failure releases the key (deletes the pending
 * row) instead. The claim and the answer are separate statements (no lock spans them, which a
 * transaction-mode pooler could not keep): an instance that dies between the write and storing
 * the answer leaves a pending claim that expires after its lease (IDEMPOTENCY_LEASE_SECONDS).
 */
export function createIdempotency(options: { db: Db; log: Logger }): Idempotency {
  const { db, log } = options;

  function claimed(claim: BeginArgs & { attempt: string }): Claimed {
    let settled = false;
    const release = async () => {
      if (settled) return;
      settled = true;
      await releaseIdempotencyKey(db, claim).catch((error: unknown) =>
        log.warn('an Idempotency-Key could not be released; it frees itself after its lease', {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    };
    return {
      kind: 'new',
      release,
      async complete(answer) {
        if (answer.status < 200 || answer.status > 299) return release();
        if (settled) return;
        settled = true;
        await completeIdempotencyKey(db, { ...claim, answer }).catch((error: unknown) =>
          log.warn('the answer of an Idempotency-Key could not be stored', {
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      },
    };
  }

  return {
    async begin(args) {
      // A claim fails only while another one holds the key; the record read after it may be
      // gone by then (released, expired): claim again, a few times at most.
      for (let tries = 0; tries < 3; tries++) {
        const attempt = randomUUID();
        if (await claimIdempotencyKey(db, { ...args, attempt })) return claimed({ ...args, attempt });
        const record = await findIdempotencyKey(db, args);
        if (!record) continue;
        if (record.method !== args.method || record.path !== args.path || record.bodyHash !== args.bodyHash) {
          throw invalidKey(
            'This key was used with another request (method, path or body) in the last 24 hours',
          );
        }
        if (record.state === 'done' && record.status !== null) {
          return { kind: 'replay', status: record.status, headers: record.headers ?? {}, body: record.body };
        }
        break;
      }
      throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still being processed');
    },
  };
}

/** Who a key belongs to: the user, or the client address when anonymous (as budgets count). */
export function idempotencyCaller(ctx: Pick<Context, 'actor' | 'clientAddress'>): string {
  return ctx.actor ? ctx.actor.user.id : `addr:${ctx.clientAddress}`;
}

export function bodyHashOf(raw: Buffer): string {
  return createHash('sha256').update(raw).digest('hex');
}

/**
 * The idempotency step of a `/v1` operation, once its caller is known: undefined, synchronously,
 * when the route takes no key, none was sent, or the request will get its 401 anyway (the caller
 * check comes first); otherwise the key claimed for this request, or the first answer to replay.
 * The path is compared lower-cased: ids are accepted in any letter case.
 */
export function beginIdempotent(
  idempotency: Idempotency | undefined,
  req: IncomingMessage,
  ctx: Pick<Context, 'actor' | 'clientAddress' | 'tokenRefused'>,
  operation: Pick<Operation, 'isPublic' | 'route' | 'traits'>,
  url: URL,
  raw: Buffer,
): undefined | Promise<Replay | Claimed> {
  // Sign-in and refresh take no key: a header sent there is ignored.
  if (!idempotency || !operation.route || !operation.traits.idempotent) return undefined;
  if (refusesCaller(operation.isPublic, ctx)) return undefined;
  const key = parseIdempotencyKey(req.headers['idempotency-key']);
  if (key === undefined) return undefined;
  return idempotency.begin({
    caller: idempotencyCaller(ctx),
    key,
    method: operation.route.method,
    path: url.pathname.toLowerCase(),
    bodyHash: bodyHashOf(raw),
  });
}

/** The headers of a first answer worth keeping for its replays (Content-Type: see answerOf). */
function keptHeaders(headers: Record<string, string | number>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = String(value);
  }
  return kept;
}

/** What a first answer leaves for its replays: its status, body and the headers worth keeping. */
export function answerOf(
  status: number,
  headers: Record<string, string>,
  body: string | null,
): IdempotentAnswer {
  const kept = keptHeaders(headers);
  if (body !== null) kept['Content-Type'] = JSON_TYPE;
  return { status, headers: kept, body };
}

/** Sends a key's first answer again, marked `Idempotent-Replayed: true`. */
export function sendReplay(res: ServerResponse, replay: Replay, headers: Record<string, string>): void {
  const all = { ...headers, ...replay.headers, 'Idempotent-Replayed': 'true' };
  if (replay.body === null) {
    res.writeHead(replay.status, all);
    res.end();
    return;
  }
  sendBody(res, replay.status, replay.body, all);
}
