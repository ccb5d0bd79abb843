import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { addressRefusal, guardedLookup, type UrlPolicy } from '@music/api-router';
import { Webhook } from 'standardwebhooks';

/** How much of a receiver's answer is kept (the rest is never read). */
export const KEPT_BODY_BYTES = 1024;

export interface Delivery {
  url: string;
  /** The webhook's secret, `whsec_` and base64 (as Standard Webhooks write it). */
  secret: string;
  /** The same for every attempt of one event to one webhook: receivers deduplicate by it. */
  messageId: string;
  /** The JSON body, signed as sent. */
  payload: string;
  policy: UrlPolicy;
  /** No answer (headers) within this long is a failed attempt. */
  timeoutMs: number;
}

export interface Attempt {
  /** The receiver's status, or null when it gave none (refused, unreachable, timed out). */
  status: number | null;
  /** The first KEPT_BODY_BYTES of its answer, as text. */
  body: string;
  /** Why there is no status. */
  error: string | null;
  ok: boolean;
  ms: number;
}

/**
 * One attempt: a POST of the payload signed as Standard Webhooks say (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), to an address the policy
 * allows at this moment (checked as the connection is made), on a connection of its own (a kept-
 * alive one would skip that check). A redirect is an answer like any other non-2xx: not
 * followed. Only 2xx is success.
 */
export function deliver(delivery: Delivery): Promise<Attempt> {
  const started = performance.now();
  const timestamp = new Date();
  const signature = new Webhook(delivery.secret).sign(delivery.messageId, timestamp, delivery.payload);
  const url = new URL(delivery.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  // An address in the URL itself is connected to without a lookup: checked here instead.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const refusal = isIP(literal) === 0 ? undefined : addressRefusal(literal, delivery.policy);
  if (refusal) {
    const ms = Math.round(performance.now() - started);
    return Promise.resolve({ status: null, body: '', error: `EREFUSED_ADDRESS: ${refusal}`, ok: false, ms });
  }
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (attempt: Omit<Attempt, 'ms' | 'ok'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
      resolve({ ...attempt, ok, ms: Math.round(performance.now() - started) });
    };
    const req = send(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(delivery.policy),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'music-catalogue-webhooks',
          'webhook-id': delivery.messageId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (res) => readKept(res).then((body) => finish({ status: res.statusCode ?? null, body, error: null })),
    );
    const timer = setTimeout(() => {
      finish({ status: null, body: '', error: `no answer within ${delivery.timeoutMs} ms` });
      req.destroy();
    }, delivery.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        status: null,
        body: '',
        error: error.code ? `${error.code}: ${error.message}` : error.message,
      }),
    );
    req.end(delivery.payload);
  });
}

/** The first KEPT_BODY_BYTES of an answer; the connection is dropped after them. */
function readKept(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, KEPT_BODY_BYTES).toString('utf8'));
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= KEPT_BODY_BYTES) {
        res.destroy();
        done();
      }
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}
