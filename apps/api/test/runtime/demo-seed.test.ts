import { countRows } from '@music/db';
import { createTestDatabase } from '@music/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoData } from '../../src/runtime/demo-seed';
import type { Artist, Playlist } from '../support/catalogue';
import { startTestApi } from '../support/harness';

const silent = { info() {} };

const api = await startTestApi({ SEED_DEMO_DATA: 'true' });
afterAll(() => api.close());

async function login(which: keyof typeof DEMO_ACCOUNTS) {
  const { email, password } = DEMO_ACCOUNTS[which];
  const res = await api.request('POST', '/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body as { accessToken: string; user: { id: string; role: string } };
}

describe('demo data', () => {
  it('seeds a small catalogue and three accounts that can sign in', async () => {
    const admin = await login('admin');
    expect(admin.user.role).toBe('admin');
    const artist = await login('artist');
    expect(artist.user.role).toBe('artist');
    const listener = await login('listener');
    expect(listener.user.role).toBe('user');

    const artists = await api.request('GET', '/artists?limit=100', { token: listener.accessToken });
    expect(artists.body.pagination.total).toBe(6);
    expect(artists.body.data.every((a: Artist) => a.bio)).toBe(true);
    const managed = artists.body.data.filter((a: Artist) => a.userId === artist.user.id);
    expect(managed).toHaveLength(1);
    const songs = await api.request('GET', '/songs?limit=100', { token: listener.accessToken });
    expect(songs.body.pagination.total).toBe(30);
    const duet = await api.request('GET', '/songs?search=Move%20Like%20Water', {
      token: listener.accessToken,
    });
    expect(duet.body.data[0].artistIds).toHaveLength(2);

    const playlists = await api.request('GET', '/playlists', { token: listener.accessToken });
    expect(playlists.body.data).toHaveLength(2);
    expect(playlists.body.data.map((p: Playlist) => p.isPublic).sort()).toEqual([false, true]);
    expect(playlists.body.data.every((p: Playlist) => p.songCount > 0)).toBe(true);

    // The artist account really manages its artist: it can create a song for it.
    const song = await api.request('POST', '/songs', {
      token: artist.accessToken,
      body: { title: 'Demo', duration: 100 },
    });
    expect(song.status).toBe(201);
    expect(song.body.artistIds).toEqual([managed[0].id]);
  });

  it('never seeds twice', async () => {
    const before = await countRows(api.database.db, 'songs');
    expect(await seedDemoData({ db: api.database.db, log: silent })).toBe(false);
    expect(await countRows(api.database.db, 'songs')).toBe(before);
  });

  it('seeds once when two instances start together', async () => {
    const database = await createTestDatabase();
    try {
      const results = await Promise.all([
        seedDemoData({ db: database.db, log: silent }),
        seedDemoData({ db: database.db, log: silent }),
      ]);
      expect(results.sort()).toEqual([false, true]);
      expect(await countRows(database.db, 'artists')).toBe(6);
    } finally {
      await database.close();
    }
  });

  it('is not seeded in production, even when asked', async () => {
    const production = await startTestApi({ SEED_DEMO_DATA: 'true', NODE_ENV: 'production' });
    try {
      expect(await countRows(production.database.db, 'artists')).toBe(0);
    } finally {
      await production.close();
    }
  });
});
