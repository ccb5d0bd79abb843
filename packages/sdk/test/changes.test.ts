import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../../../apps/api/test/support/harness';
import { type ChangePage, MusicApiError } from '../src/index';
import { sessionOf, startApi, tagOf } from './support';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.close());

/** Every page of the feed from `after` until it has nothing new. */
async function drain(pages: AsyncGenerator<ChangePage>) {
  const read: ChangePage[] = [];
  for await (const page of pages) read.push(page);
  return read;
}

describe('the change feed', () => {
  it('reads on from a kept cursor: every event once, then waits for new ones when asked', async () => {
    const admin = await api.signUp('admin');
    const { client, sent } = sessionOf(api, admin);
    const start = (await drain(client.changes())).at(-1)!.cursor;
    const tag = tagOf();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const { data } = await client.POST('/songs', { body: { title: `${tag} ${n}`, duration: 60 } });
      ids.push(data!.id);
    }
    sent.length = 0;
    const pages = await drain(client.changes({ after: start, types: 'song.*', limit: 2 }));
    expect(pages.flatMap((p) => p.events.map((e) => [e.type, e.resource.id]))).toEqual(
      ids.map((id) => ['song.created', id]),
    );
    // Two pages of events, then one read that found nothing new and ended the iteration.
    expect(sent.map((r) => new URL(r.path, 'http://x').searchParams.get('limit'))).toEqual(['2', '2', '2']);
    const last = pages.at(-1)!.cursor;
    expect(await drain(client.changes({ after: last }))).toEqual([]);

    // Waiting: a song made while the iteration polls comes next; aborting ends it.
    const stop = new AbortController();
    const waiting = (async () => {
      for await (const page of client.changes({ after: last, pollMs: 20, signal: stop.signal })) {
        if (page.events.length > 0) {
          stop.abort();
          return page.events.map((e) => e.data.title);
        }
      }
      return [];
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.POST('/songs', { body: { title: `${tag} late`, duration: 60 } });
    expect(await waiting).toEqual([`${tag} late`]);
  });

  it('throws the API error of a cursor it did not give out', async () => {
    const user = await api.signUp();
    const { client } = sessionOf(api, user);
    const error = await drain(client.changes({ after: 'nonsense' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MusicApiError);
    expect((error as MusicApiError).code).toBe('VALIDATION_FAILED');
  });
});
