import type { RouterOutputs } from '@music/api-router';
import { expect } from 'vitest';
import { DATE, makeSong, UUID } from './catalogue';
import type { SignedIn, TestApi } from './harness';

/** What the change-feed suites share: the feed's shapes, and reading it as a client does. */

export type User = RouterOutputs['users']['get'];

export interface FeedEvent {
  id: string;
  type: string;
  at: string;
  resource: { type: string; id: string };
  data: Record<string, unknown>;
}
export interface FeedPage {
  data: FeedEvent[];
  nextCursor: string;
}

export const TYPES = ['song', 'artist', 'playlist', 'user'].flatMap((resource) =>
  ['created', 'updated', 'deleted'].map((change) => `${resource}.${change}`),
);

/** The events of these records, in feed order. */
export const of = (events: FeedEvent[], ...ids: string[]) =>
  events.filter((e) => ids.includes(e.resource.id));

/** The event of `type` carrying `data` (whose id is the resource's). */
export const event = <Data extends { id: string }>(type: string, data: Data) => ({
  id: expect.stringMatching(UUID),
  type,
  at: expect.stringMatching(DATE),
  resource: { type: type.split('.')[0], id: data.id },
  data,
});

/** Events (or expectations) in an order of their own, for writes whose events share one commit. */
export const sorted = <T extends { type: string; resource: { id: string } }>(list: T[]) =>
  [...list].sort((a, b) => (`${a.type} ${a.resource.id}` < `${b.type} ${b.resource.id}` ? -1 : 1));

/** Reading the feed and the records as `admin` (or another caller's token) on `api`. */
export function feedRig(api: TestApi, admin: SignedIn) {
  const feed = (query: string, token = admin.token) =>
    api.request<FeedPage>('GET', `/events${query ? `?${query}` : ''}`, { token });

  /**
   * Every event the reader sees after `after` (from the oldest kept without it), following
   * nextCursor until a page comes back empty; and that last page's cursor.
   */
  async function readFrom(token: string, options: { after?: string; limit?: number; types?: string } = {}) {
    const limit = options.limit ?? 1000;
    const events: FeedEvent[] = [];
    let after = options.after;
    for (;;) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (after !== undefined) query.set('after', after);
      if (options.types !== undefined) query.set('types', options.types);
      const res = await feed(query.toString(), token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.nextCursor).toEqual(expect.any(String));
      expect(res.body.data.length).toBeLessThanOrEqual(limit);
      if (res.body.data.length === 0) return { events, cursor: res.body.nextCursor };
      events.push(...res.body.data);
      after = res.body.nextCursor;
    }
  }

  /**
   * readFrom, which must already show what `done` expects: a write answered before the read is in
   * the feed at once (the feed numbers what committed before it reads), on any instance.
   */
  async function readUntil(token: string, after: string | undefined, done: (events: FeedEvent[]) => boolean) {
    const read = await readFrom(token, { after });
    expect(done(read.events), 'the feed shows every write answered before the read').toBe(true);
    return read;
  }

  /**
   * readFrom once a song created now is among the events: every write that committed before it
   * is in the feed by then (so an absent event is absent, not late).
   */
  async function sync(token: string, after?: string) {
    const barrier = await makeSong(api, admin, { title: 'Barrier' });
    return readUntil(token, after, (events) => events.some((e) => e.resource.id === barrier.id));
  }

  async function read<T>(path: string, token = admin.token): Promise<T> {
    const res = await api.request<T>('GET', path, { token });
    expect(res.status, `GET ${path}`).toBe(200);
    return res.body;
  }

  async function write<T>(method: string, path: string, token: string, body?: unknown, status = 200) {
    const res = await api.request<T>(method, path, { token, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body;
  }

  return { feed, readFrom, readUntil, sync, read, write };
}
