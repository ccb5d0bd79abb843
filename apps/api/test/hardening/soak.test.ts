import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { makeArtist, makeSong, type Song } from '../support/catalogue';
import { type Response, type SignedIn, startTestApi } from '../support/harness';

/**
 * A bounded soak: several users read and write at once for SOAK_SECONDS (20 by default; CI runs
 * it on both databases). Every answer must be one the operation may give (no 5xx at all), every
 * write that was acknowledged (201/204/200) must be visible afterwards exactly as the writers'
 * own model says, and the server's heap (it runs in this process) must not grow between the
 * first quarter of the run and its end.
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 20);
const LISTENERS = 6;
const HEAP_GROWTH_LIMIT_MB = 32;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');
const artist = await makeArtist(api, admin, { name: 'Soak Artist' });
const songs: Song[] = [];
for (let i = 0; i < 30; i++) {
  songs.push(
    await makeSong(api, admin, {
      title: `Soak song ${i}`,
      genre: i % 2 ? 'jazz' : 'rock',
      artistIds: [artist.id],
    }),
  );
}

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;

describe('soak: mixed reads and writes from several users', () => {
  it(
    `keeps every answer in contract, loses no acknowledged write and holds its memory (${SECONDS} s)`,
    async () => {
      const listeners = await Promise.all(Array.from({ length: LISTENERS }, () => api.signUp('user')));
      const unexpected: string[] = [];
      const counts = new Map<number, number>();
      const expectStatus = (res: Response, allowed: number[], what: string) => {
        counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
        if (!allowed.includes(res.status))
          unexpected.push(`${what} -> ${res.status} ${res.text.slice(0, 200)}`);
        return allowed.includes(res.status) && res.status < 300;
      };

      // What each writer knows it wrote: playlist id -> songs in order; song id -> last title.
      const playlists = new Map<string, { owner: SignedIn; songIds: string[] }>();
      const titles = new Map<string, string>();
      const until = Date.now() + SECONDS * 1000;
      let heapAtQuarter: number | undefined;
      const quarter = setTimeout(
        () => {
          heapAtQuarter = heapMb();
        },
        (SECONDS * 1000) / 4,
      );

      const listener = async (user: SignedIn) => {
        const own: string[] = [];
        while (Date.now() < until) {
          const roll = Math.random();
          if (own.length === 0 || roll < 0.05) {
            const res = await api.request('POST', '/playlists', {
              token: user.token,
              body: { name: `Soak ${own.length}`, songIds: [pick(songs).id] },
            });
            if (expectStatus(res, [201], 'create playlist')) {
              own.push(res.body.id);
              playlists.set(res.body.id, { owner: user, songIds: res.body.songIds });
            }
          } else if (roll < 0.35) {
            const id = pick(own);
            const model = playlists.get(id)!;
            const songId = pick(songs).id;
            const res = await api.request('POST', `/playlists/${id}/songs`, {
              token: user.token,
              body: { songId },
            });
            const duplicate = model.songIds.includes(songId);
            if (expectStatus(res, [duplicate ? 409 : 204], `add ${duplicate ? 'a present' : 'a new'} song`)) {
              model.songIds.push(songId);
            }
          } else if (roll < 0.5) {
            const id = pick(own);
            const model = playlists.get(id)!;
            const songId = pick(songs).id;
            const present = model.songIds.includes(songId);
            const res = await api.request('DELETE', `/playlists/${id}/songs/${songId}`, {
              token: user.token,
            });
            if (
              expectStatus(res, [present ? 204 : 404], `remove ${present ? 'a present' : 'an absent'} song`)
            ) {
              model.songIds.splice(model.songIds.indexOf(songId), 1);
            }
          } else if (roll < 0.65) {
            const res = await api.request('GET', `/playlists/${pick(own)}`, { token: user.token });
            expectStatus(res, [200], 'get own playlist');
          } else if (roll < 0.8) {
            const res = await api.request(
              'GET',
              `/songs?page=${1 + Math.floor(Math.random() * 3)}&limit=10`,
              {
                token: user.token,
              },
            );
            expectStatus(res, [200], 'list songs');
          } else if (roll < 0.9) {
            const res = await api.request(
              'GET',
              `/songs?search=${pick(['soak', 'song 1', 'artist', '%_'])}`,
              {
                token: user.token,
              },
            );
            expectStatus(res, [200], 'search songs');
          } else {
            const res = await api.request('GET', `/songs/${pick(songs).id}`, { token: user.token });
            expectStatus(res, [200], 'get song');
          }
        }
      };

      const editor = async () => {
        let n = 0;
        while (Date.now() < until) {
          const song = pick(songs);
          const title = `Soak song edited ${n++}`;
          const res = await api.request('PATCH', `/songs/${song.id}`, {
            token: admin.token,
            body: { title },
          });
          if (expectStatus(res, [200], 'rename song')) titles.set(song.id, title);
          const list = await api.request('GET', '/playlists?limit=5', { token: admin.token });
          expectStatus(list, [200], 'admin lists playlists');
        }
      };

      const heapBefore = heapMb();
      await Promise.all([...listeners.map(listener), editor()]);
      clearTimeout(quarter);
      const heapAfter = heapMb();

      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      expect(unexpected, unexpected.slice(0, 10).join('\n')).toEqual([]);
      expect([...counts.keys()].filter((status) => status >= 500)).toEqual([]);
      expect(total).toBeGreaterThan(LISTENERS * SECONDS); // it really ran

      for (const [id, model] of playlists) {
        const res = await api.request('GET', `/playlists/${id}`, { token: model.owner.token });
        expect(res.status).toBe(200);
        expect(res.body.songIds, `playlist ${id}`).toEqual(model.songIds);
        expect(res.body.songCount).toBe(model.songIds.length);
      }
      for (const [id, title] of titles) {
        const res = await api.request('GET', `/songs/${id}`, { token: admin.token });
        expect(res.body.title).toBe(title);
      }
      const growth = heapAfter - (heapAtQuarter ?? heapBefore);
      process.stdout.write(
        `soak: ${total} requests in ${SECONDS} s, statuses ${JSON.stringify(Object.fromEntries(counts))}, ` +
          `${playlists.size} playlists checked, heap ${heapBefore.toFixed(1)} -> ${heapAtQuarter?.toFixed(1)} -> ` +
          `${heapAfter.toFixed(1)} MB\n`,
      );
      expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT_MB);
    },
    (SECONDS + 60) * 1000,
  );
});
