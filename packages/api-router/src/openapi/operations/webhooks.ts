import type { OperationDoc } from '../types';

const HOOK_ID = '01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1d';
const HOOK = {
  id: HOOK_ID,
  userId: '01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c10',
  url: 'https://hooks.example.com/music',
  events: ['song.*', 'artist.created'],
  description: 'Mirror of the catalogue',
  enabled: true,
  failures: 0,
  disabledAt: null,
  disabledReason: null,
  createdAt: '2026-12-02T10:00:00Z',
  updatedAt: '2026-12-02T10:00:00Z',
};
const DELIVERY = {
  id: '01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1e',
  eventId: '01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1c',
  eventType: 'song.updated',
  status: 'succeeded',
  attempts: 2,
  nextAttemptAt: null,
  lastAttemptAt: '2026-12-02T10:00:06Z',
  responseStatus: 204,
  responseBody: null,
  error: null,
  durationMs: 41,
  createdAt: '2026-12-02T10:00:01Z',
};
const NOT_YOURS =
  'No webhook with this id among yours (an admin sees every webhook; a malformed id names none)';
const URL_RULES =
  'The URL must be `https:` (`http:` only where the operator set WEBHOOK_ALLOW_HTTP), carry no user ' +
  'name or password, and resolve only to public addresses: link-local and cloud metadata addresses ' +
  'never, loopback and private ones only where the operator set WEBHOOK_ALLOW_PRIVATE. It is ' +
  'checked again as each delivery connects, and redirects are never followed.';

export const webhookDocs: Record<string, OperationDoc> = {
  'webhooks.create': {
    description:
      'Keep the `secret`: it is never shown again. Each delivery is a POST of one event as JSON, the ' +
      'same object the change feed (`GET /events`) gives, with the headers `webhook-id` (the ' +
      'delivery’s id: the same on every attempt, so deduplicate on it), `webhook-timestamp` (Unix ' +
      'seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` ' +
      'with the secret’s bytes), as Standard Webhooks say: their libraries verify it. Answer any 2xx ' +
      'within 10 seconds. The first attempt comes within seconds of the write; a failed one (any ' +
      'other status, or no answer within 10 s) is retried after each wait of WEBHOOK_RETRY_SECONDS ' +
      '(5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h by default: about 27 hours), then the delivery is ' +
      '`failed`. After WEBHOOK_MAX_FAILURES failed attempts in a row (50 by default) the webhook is ' +
      'disabled (`enabled: false`, `disabledReason`) until its owner enables it again. A webhook is ' +
      'sent the events its owner may read at the time (as `GET /events` would show them), from its ' +
      `creation on; \`user.*\` events are for admins only. ${URL_RULES}`,
    request: {
      url: 'https://hooks.example.com/music',
      events: ['song.*', 'artist.created'],
      description: 'Mirror of the catalogue',
    },
    response: { ...HOOK, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    errors: {
      CONFLICT: 'The account already has 25 webhooks',
      VALIDATION_FAILED:
        'A URL the rules refuse (`url`), or an unknown type, a repeated one, none, or `user.*` asked by a non-admin (`events`)',
    },
  },
  'webhooks.list': {
    description: 'Without their secrets, which are shown only when a webhook is made.',
    query: { page: 1, limit: 20 },
    response: { data: [HOOK], pagination: { page: 1, limit: 20, total: 1 } },
    errors: {
      FORBIDDEN: 'A non-admin naming another user’s `userId`',
      NOT_FOUND: 'No user with this `userId`',
    },
  },
  'webhooks.get': {
    description: '`failures` counts failed attempts in a row; a success sets it back to 0.',
    response: HOOK,
    errors: { NOT_FOUND: NOT_YOURS },
  },
  'webhooks.update': {
    description:
      'Fields left out stay as they are. `enabled: true` enables a disabled webhook again (its failures ' +
      'in a row start from 0; events written while it was disabled are not sent); `enabled: false` ' +
      `pauses it. ${URL_RULES}`,
    request: { enabled: true },
    response: HOOK,
    errors: {
      NOT_FOUND: NOT_YOURS,
      VALIDATION_FAILED: 'A URL the rules refuse (`url`), or types refused as at creation (`events`)',
    },
  },
  'webhooks.delete': {
    description: 'Its deliveries go with it, and nothing more is sent, also no retry already queued.',
    errors: { NOT_FOUND: NOT_YOURS },
  },
  'webhooks.deliveries': {
    description:
      'One delivery per event (and per test ping): its status, how many attempts were made, when the ' +
      'next is due, and the last attempt’s answer: its status and the first 1 KiB of its body (no more ' +
      'is kept), or why there was none. Pages of `limit` (1 to 100), newest first.',
    query: { limit: 20 },
    response: { data: [DELIVERY], nextCursor: null },
    errors: {
      NOT_FOUND: NOT_YOURS,
      VALIDATION_FAILED: 'A `cursor` this list did not give out',
    },
  },
  'webhooks.retryDelivery': {
    description:
      'For a delivery that `succeeded` or `failed`: one more attempt, within seconds, with the same ' +
      'body and `webhook-id`, also to a disabled webhook. Its outcome shows in the deliveries list.',
    response: { ...DELIVERY, status: 'pending', nextAttemptAt: '2026-12-02T11:00:00Z' },
    errors: {
      NOT_FOUND: 'No such webhook among yours, or no such delivery of it',
      CONFLICT: 'The delivery is still pending: an attempt is already due',
    },
  },
  'webhooks.ping': {
    description:
      'A `webhook.ping` event (`data`: the webhook’s id and URL), signed like every delivery, sent ' +
      'within seconds, even to a disabled webhook: to check the receiver and its verification.',
    response: {
      ...DELIVERY,
      eventType: 'webhook.ping',
      status: 'pending',
      attempts: 0,
      lastAttemptAt: null,
      responseStatus: null,
      durationMs: null,
      nextAttemptAt: '2026-12-02T11:00:00Z',
    },
    errors: { NOT_FOUND: NOT_YOURS },
  },
};
