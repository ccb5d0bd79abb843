import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type SignedIn, startTestApi, uniqueEmail } from '../support/harness';

const api = await startTestApi();
const sibling = await api.startSibling();
afterAll(() => api.close());

const admin: SignedIn = await api.signUp('admin');
const user: SignedIn = await api.signUp();

const keyed = (key: string, token?: string) => ({ token, headers: { 'idempotency-key': key } });
const artistsNamed = async (name: string) =>
  (await api.database.db.selectFrom('artists').select('id').where('name', '=', name).execute()).length;

describe('Idempotency-Key on creations (version 1.1)', () => {
  it('answers a repeat with the first answer, marked replayed, on any instance, creating once', async () => {
    const key = randomUUID();
    const name = `Once ${key}`;
    const first = await api.request('POST', '/artists', { ...keyed(key, admin.token), body: { name } });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (const instance of [api, sibling]) {
      const again = await instance.request('POST', '/artists', {
        ...keyed(key, admin.token),
        body: { name },
      });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    }
    expect(await artistsNamed(name)).toBe(1);
    // Without the key the same body is a new request.
    expect((await api.request('POST', '/artists', { token: admin.token, body: { name } })).status).toBe(201);
    expect(await artistsNamed(name)).toBe(2);
  });

  it('refuses the key with another body or path: 422 on Idempotency-Key', async () => {
    const key = randomUUID();
    const name = `Body ${key}`;
    expect(
      (await api.request('POST', '/artists', { ...keyed(key, admin.token), body: { name } })).status,
    ).toBe(201);
    const otherBody = await sibling.request('POST', '/artists', {
      ...keyed(key, admin.token),
      body: { name: `${name}!` },
    });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'Idempotency-Key' }],
    });
    const otherPath = await api.request('POST', '/songs', {
      ...keyed(key, admin.token),
      body: { title: name, duration: 60 },
    });
    expect(otherPath.status).toBe(422);
    expect(otherPath.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    expect(await artistsNamed(`${name}!`)).toBe(0);
  });

  it('runs simultaneous repeats once: one 201, the others 409 or the replay', async () => {
    const key = randomUUID();
    const name = `Race ${key}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? sibling : api).request('POST', '/artists', { ...keyed(key, admin.token), body: { name } }),
      ),
    );
    const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 409) expect(answer.body.code).toBe('CONFLICT');
      else {
        expect(answer.status).toBe(201);
        expect(answer.text).toBe(fresh[0]!.text);
      }
    }
    expect(await artistsNamed(name)).toBe(1);
  });

  it('refuses a malformed key with 422 on Idempotency-Key, after the caller check', async () => {
    for (const bad of ['', 'x'.repeat(256), 'caf\u00e9', 'tab\there']) {
      const res = await api.request('POST', '/artists', {
        ...keyed(bad, admin.token),
        body: { name: 'Bad key' },
      });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    }
    expect(
      (
        await api.request('POST', '/artists', {
          ...keyed('x'.repeat(255), admin.token),
          body: { name: 'Long' },
        })
      ).status,
    ).toBe(201);
    expect((await api.request('POST', '/artists', { ...keyed(''), body: { name: 'Bad key' } })).status).toBe(
      401,
    );
    expect(await artistsNamed('Bad key')).toBe(0);
  });

  it('keeps no failed answer: the key runs again once the request is fixed', async () => {
    const key = randomUUID();
    const invalid = await api.request('POST', '/artists', { ...keyed(key, admin.token), body: { name: '' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].field).toBe('name');
    const forbidden = await api.request('POST', '/artists', {
      ...keyed(key, user.token),
      body: { name: 'No' },
    });
    expect(forbidden.status).toBe(403);
    const fixed = await api.request('POST', '/artists', {
      ...keyed(key, admin.token),
      body: { name: `Fixed ${key}` },
    });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays a 204 append instead of answering 409 for the song already there', async () => {
    const song = await api.request('POST', '/songs', {
      token: admin.token,
      body: { title: 'Append me', duration: 90 },
    });
    const playlist = await api.request('POST', '/playlists', { token: user.token, body: { name: 'Keyed' } });
    const key = randomUUID();
    const path = `/playlists/${playlist.body.id}/songs`;
    const first = await api.request('POST', path, {
      ...keyed(key, user.token),
      body: { songId: song.body.id },
    });
    expect(first.status).toBe(204);
    const upper = `/playlists/${String(playlist.body.id).toUpperCase()}/songs`;
    const again = await sibling.request('POST', upper, {
      ...keyed(key, user.token),
      body: { songId: song.body.id },
    });
    expect(again.status).toBe(204);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe('');
    const unkeyed = await api.request('POST', path, { token: user.token, body: { songId: song.body.id } });
    expect(unkeyed.status).toBe(409);
    const read = await api.request('GET', `/playlists/${playlist.body.id}`, { token: user.token });
    expect(read.body.songIds).toEqual([song.body.id]);
  });

  it('keeps keys per caller: the user, or the client address when anonymous', async () => {
    const key = randomUUID();
    const mine = await api.request('POST', '/playlists', {
      ...keyed(key, user.token),
      body: { name: 'Mine' },
    });
    const theirs = await api.request('POST', '/playlists', {
      ...keyed(key, admin.token),
      body: { name: 'Mine' },
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);

    const email = uniqueEmail('keyed');
    const signUp = { username: 'Keyed', email, password: 'a-long-password' };
    const created = await api.request('POST', '/users', { ...keyed(key), body: signUp });
    const repeated = await sibling.request('POST', '/users', { ...keyed(key), body: signUp });
    expect([created.status, repeated.status]).toEqual([201, 201]);
    expect(repeated.body).toEqual(created.body);
    expect(repeated.headers.get('idempotent-replayed')).toBe('true');
  });

  it('ignores the header on sign-in and refresh', async () => {
    const key = randomUUID();
    const body = { email: user.email, password: user.password };
    const first = await api.request('POST', '/auth/login', { ...keyed(key), body });
    const second = await api.request('POST', '/auth/login', { ...keyed(key), body });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.refreshToken).not.toBe(first.body.refreshToken);
    const refreshed = await api.request('POST', '/auth/refresh', {
      ...keyed(key),
      body: { refreshToken: second.body.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('idempotent-replayed')).toBeNull();
  });
});
