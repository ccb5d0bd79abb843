import { randomUUID } from 'node:crypto';

/**
 * The fake API's API keys and activity log (test/fake-api.ts answers through these), kept the way
 * the real service keeps them: a key's token is answered once, at its making, and never listed; at
 * most MAX_KEYS keys; a name of 1 to 100 characters and at least one scope, else a 422 naming the
 * field; the log newest first, paged by an opaque cursor, for admins only (403 otherwise). Tokens
 * starting `Bearer access-listener` stand for a non-admin's session.
 */

export const MAX_KEYS = 100;

interface Key {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export interface FakeEvent {
  id: string;
  at: string;
  actor: { userId: string | null; apiKeyId: string | null };
  action: string;
  target: { type: string; id: string };
  changes: Record<string, { before: unknown; after: unknown } | 'changed'>;
  requestId: string;
  address: string;
}

/** What the fake holds: reset by `resetRecords`, seeded by the suites. */
export const records = { keys: [] as Key[], events: [] as FakeEvent[] };

export function resetRecords() {
  records.keys = [];
  records.events = [];
}

/** An event `minutesAgo` minutes old (the log is ordered by `at`, newest first). */
export function seedEvent(
  event: Partial<FakeEvent> & Pick<FakeEvent, 'action' | 'target'>,
  minutesAgo: number,
) {
  const at = new Date(Date.UTC(2026, 0, 1, 12, 0) - minutesAgo * 60_000).toISOString();
  records.events.push({
    id: randomUUID(),
    at,
    actor: { userId: null, apiKeyId: null },
    changes: {},
    requestId: `req-${records.events.length}`,
    address: '127.0.0.1',
    ...event,
  });
}

type Answer = (value: unknown) => void;
type Refuse = (
  status: number,
  code: 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'VALIDATION_FAILED',
  extra?: Record<string, unknown>,
) => void;

const fieldError = (field: string, message: string) => ({ errors: [{ field, message }] });

/**
 * Answers a call to `apiKeys.*` or `auditEvents.list` (true), or leaves it to the caller (false).
 * `body` is a mutation's JSON body; a query's input is read from `?input=`.
 */
export function answerRecords(
  url: string,
  body: Record<string, unknown>,
  authorization: string | undefined,
  data: Answer,
  fail: Refuse,
): boolean {
  const { pathname, searchParams } = new URL(url, 'http://fake.api');
  const name = pathname.slice('/trpc/'.length);
  if (!name.startsWith('apiKeys.') && name !== 'auditEvents.list') return false;
  if (!authorization?.startsWith('Bearer access')) return false;
  const input = (searchParams.has('input') ? JSON.parse(searchParams.get('input')!) : body) as Record<
    string,
    unknown
  >;
  if (name === 'apiKeys.create') {
    const keyName = typeof input.name === 'string' ? input.name.trim() : '';
    if (keyName.length < 1 || keyName.length > 100) {
      fail(422, 'VALIDATION_FAILED', fieldError('name', 'Too big: expected string to have <=100 characters'));
    } else if (!Array.isArray(input.scopes) || input.scopes.length === 0) {
      fail(422, 'VALIDATION_FAILED', fieldError('scopes', 'Too small: expected array to have >=1 items'));
    } else if (typeof input.expiresAt === 'string' && new Date(input.expiresAt) <= new Date()) {
      fail(422, 'VALIDATION_FAILED', fieldError('expiresAt', 'Must be in the future'));
    } else if (records.keys.length >= MAX_KEYS) {
      fail(409, 'CONFLICT', {});
    } else {
      const token = `mc_${randomUUID().replaceAll('-', '')}`;
      const key: Key = {
        id: randomUUID(),
        name: keyName,
        scopes: input.scopes as string[],
        prefix: token.slice(0, 12),
        createdAt: new Date().toISOString(),
        expiresAt: typeof input.expiresAt === 'string' ? new Date(input.expiresAt).toISOString() : null,
        lastUsedAt: null,
      };
      records.keys.push(key);
      data({ ...key, token });
    }
    return true;
  }
  if (name === 'apiKeys.list') {
    const page = Number(input.page ?? 1);
    const limit = Number(input.limit ?? 20);
    data({
      data: records.keys.slice((page - 1) * limit, page * limit),
      pagination: { page, limit, total: records.keys.length },
    });
    return true;
  }
  if (name === 'apiKeys.delete') {
    const before = records.keys.length;
    records.keys = records.keys.filter((key) => key.id !== input.keyId);
    if (records.keys.length === before) fail(404, 'NOT_FOUND');
    else data(undefined);
    return true;
  }
  if (name === 'apiKeys.get') {
    const key = records.keys.find((k) => k.id === input.keyId);
    if (key) data(key);
    else fail(404, 'NOT_FOUND');
    return true;
  }
  // auditEvents.list
  if (authorization.startsWith('Bearer access-listener')) {
    fail(403, 'FORBIDDEN');
    return true;
  }
  const matching = records.events
    .filter(
      (event) =>
        (input.targetType === undefined || event.target.type === input.targetType) &&
        (input.targetId === undefined || event.target.id === input.targetId) &&
        (input.actorId === undefined || event.actor.userId === input.actorId) &&
        (input.action === undefined || event.action === input.action),
    )
    .sort((a, b) => b.at.localeCompare(a.at));
  const from =
    input.cursor === undefined ? 0 : Number(Buffer.from(String(input.cursor), 'base64url').toString());
  const limit = Number(input.limit ?? 20);
  const page = matching.slice(from, from + limit);
  const more = from + limit < matching.length;
  data({ data: page, nextCursor: more ? Buffer.from(String(from + limit)).toString('base64url') : null });
  return true;
}
