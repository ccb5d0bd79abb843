import { randomUUID } from 'node:crypto';

/**
 * The fake API's webhooks (test/fake-api.ts answers through these), refused the way the real
 * service refuses them: a URL that is not https: (or http:) is a 422 on `url`; an unknown type,
 * or a user event for a non-admin (tokens starting `Bearer access-listener`), a 422 on `events`
 * or on one of its items (`events.1`); at most MAX_WEBHOOKS, then a 409. The secret is answered
 * once, at the making.
 */

export const MAX_WEBHOOKS = 25;
const TYPE = /^(song|artist|playlist|user)\.(created|updated|deleted|\*)$/;

/** What the fake holds: reset by `resetWebhooks` before each test. */
export const hooks: Array<{ id: string; url: string; events: string[] }> = [];

export function resetWebhooks() {
  hooks.length = 0;
}

type Answer = (value: unknown) => void;
type Refuse = (
  status: number,
  code: 'CONFLICT' | 'VALIDATION_FAILED',
  extra?: Record<string, unknown>,
) => void;

const fieldError = (field: string, message: string) => ({ errors: [{ field, message }] });

/** Answers `webhooks.create` (true) for a session's bearer token, or leaves the call to the caller. */
export function answerWebhooks(
  path: string,
  input: Record<string, unknown>,
  authorization: string | undefined,
  data: Answer,
  fail: Refuse,
): boolean {
  if (path !== '/trpc/webhooks.create' || !authorization?.startsWith('Bearer access')) return false;
  const url = typeof input.url === 'string' ? input.url : '';
  const events = Array.isArray(input.events) ? (input.events as string[]) : [];
  const unknown = events.findIndex((name) => !TYPE.test(name));
  if (!/^https?:\/\/[^/]/.test(url))
    fail(422, 'VALIDATION_FAILED', fieldError('url', 'Must be an https: URL'));
  else if (unknown >= 0)
    fail(
      422,
      'VALIDATION_FAILED',
      fieldError(`events.${unknown}`, `Unknown event type "${events[unknown]}"`),
    );
  else if (authorization.startsWith('Bearer access-listener') && events.some((e) => e.startsWith('user.')))
    fail(422, 'VALIDATION_FAILED', fieldError('events', 'Only admins may be sent user events'));
  else if (hooks.length >= MAX_WEBHOOKS) fail(409, 'CONFLICT');
  else {
    const hook = { id: randomUUID(), url, events };
    hooks.push(hook);
    data({ ...hook, secret: `whsec_${randomUUID()}` });
  }
  return true;
}
