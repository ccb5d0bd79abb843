import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { error, makeArtist, makeSong } from '../support/catalogue';
import { startTestApi } from '../support/harness';

/**
 * Artists and songs over HTTP (version 1.1): the ETag a GET answers is the one their writes
 * accept in If-Match (the edge tags the body it sends, the services re-derive the tag under the
 * row lock: the two must agree byte for byte), it is the body's own tag, and a write that
 * changes the record changes it.
 */

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');

/** A strong tag of these exact bytes, computed independently of the server's code. */
const tagOfBody = (text: string) => `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;

describe.each([
  {
    what: 'artist',
    path: (id: string) => `/artists/${id}`,
    make: () => makeArtist(api, admin),
    change: { name: 'Renamed' },
    lost: { name: 'Lost' },
  },
  {
    what: 'song',
    path: (id: string) => `/songs/${id}`,
    make: () => makeSong(api, admin),
    change: { title: 'Retitled', duration: 301 },
    lost: { title: 'Lost' },
  },
])('If-Match on an $what', ({ path, make, change, lost }) => {
  it('accepts the tag its GET answered, refuses it once stale with 412, and changes nothing then', async () => {
    const record = await make();
    // Both writes send the tag the first GET answered: the second must find it stale.
    const patchIfMatch = (body: object, tag: string) =>
      api.request('PATCH', path(record.id), { token: admin.token, body, headers: { 'if-match': tag } });
    const read = await api.request('GET', path(record.id), { token: admin.token });
    const tag = read.headers.get('etag')!;
    expect(tag).toBe(tagOfBody(read.text));

    const patched = await patchIfMatch(change, tag);
    expect(patched.status).toBe(200);
    const next = patched.headers.get('etag')!;
    expect(next).not.toBe(tag);
    expect(next).toBe(tagOfBody(patched.text));

    const stale = await patchIfMatch(lost, tag);
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual(error('PRECONDITION_FAILED'));
    const after = await api.request('GET', path(record.id), { token: admin.token });
    expect(after.text).toBe(patched.text);

    const removed = await api.request('DELETE', path(record.id), {
      token: admin.token,
      headers: { 'if-match': next },
    });
    expect(removed.status).toBe(204);
  });
});
