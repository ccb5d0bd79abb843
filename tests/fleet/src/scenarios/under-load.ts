import { expect } from 'vitest';
import { sleep } from '../processes';
import { ADMIN, CHECK_INTERVAL_MS, type Fleet } from './fleet';
import { startReceiver } from './receiver';

async function adminToken(fleet: Fleet): Promise<string> {
  return (await fleet.call('POST', '/auth/login', { body: ADMIN })).body.accessToken as string;
}

export async function readsThroughSchemaChanges(fleet: Fleet): Promise<void> {
  const admin = await adminToken(fleet);
  const user = await fleet.signUp('reader');
  const artist = await fleet.call('POST', '/artists', { token: admin, body: { name: 'Fleet Artist' } });
  expect(artist.status).toBe(201);
  const load = fleet.steadyLoad(80, (i) => {
    const reads = [
      { method: 'GET', path: `/artists/${artist.body.id}`, token: user.token, ok: [200] },
      { method: 'GET', path: '/artists?limit=20', token: user.token, ok: [200] },
      { method: 'GET', path: `/users/${user.id}`, token: user.token, ok: [200] },
      { method: 'GET', path: '/users?limit=20', token: admin, ok: [200] },
      { method: 'GET', path: '/auth/me', token: user.token, ok: [200] },
    ];
    return reads[i % reads.length]!;
  });
  await sleep(1_500);
  await fleet.onDatabase(async (db) => {
    await db.query('alter table artists add column fleet_note text');
    await sleep(700);
    await db.query('alter table users add column fleet_nickname text');
    await sleep(700);
    await db.query('create table fleet_extra (id int primary key, note text)');
    await db.query('alter table songs add column fleet_mood text default null');
  });
  await sleep(3_000);
  const results = await load.stop();
  expect(results.length).toBeGreaterThan(300);
  const failed = results.filter((r) => r.status !== 200);
  expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
}

/**
 * A change-feed reader through the balancer, reading `types` after `after` in pages of five as
 * long as it runs: every read must answer 200 (whichever instance, restarted or not). `stop` reads
 * on until nothing is new and returns the events read, in order.
 */
function feedReader(fleet: Fleet, token: string, after: string, types: string) {
  const seen: Array<{ id: string; type: string; resource: { id: string } }> = [];
  const failures: string[] = [];
  let cursor = after;
  let running = true;
  const readOnce = async () => {
    const res = await fleet.call('GET', `/events?after=${cursor}&types=${types}&limit=5`, { token });
    if (res.status !== 200) {
      failures.push(`${res.status} ${JSON.stringify(res.body)}`);
      return false;
    }
    seen.push(...res.body.data);
    const moved = res.body.nextCursor !== cursor;
    cursor = res.body.nextCursor;
    return moved;
  };
  const loop = (async () => {
    while (running) {
      await readOnce();
      await sleep(50);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      while (await readOnce()) {
        // Read on until the cursor comes back unchanged: nothing new.
      }
      return { seen, failures };
    },
  };
}

export async function survivesRollingRestart(fleet: Fleet): Promise<void> {
  const user = await fleet.signUp('roller');
  const start = await fleet.call('GET', '/events?types=playlist.created&limit=1000', { token: user.token });
  expect(start.status).toBe(200);
  let after = start.body.nextCursor as string;
  for (let page = start; page.body.data.length > 0; after = page.body.nextCursor) {
    page = await fleet.call('GET', `/events?after=${after}&types=playlist.created&limit=1000`, {
      token: user.token,
    });
  }
  // The user's own playlists' events, read while every instance restarts, and pushed to a webhook.
  const reader = feedReader(fleet, user.token, after, 'playlist.created');
  const receiver = await startReceiver();
  const hook = await fleet.call('POST', '/webhooks', {
    token: user.token,
    body: { url: receiver.url, events: ['playlist.created'] },
  });
  expect(hook.status).toBe(201);
  const load = fleet.steadyLoad(80, (i) =>
    i % 4 === 0
      ? { method: 'POST', path: '/playlists', token: user.token, body: { name: `Roll ${i}` }, ok: [201] }
      : i % 4 === 1
        ? { method: 'GET', path: '/playlists?limit=5', token: user.token, ok: [200] }
        : i % 4 === 2
          ? { method: 'GET', path: '/auth/me', token: user.token, ok: [200] }
          : { method: 'GET', path: '/songs?limit=5', token: user.token, ok: [200] },
  );
  await sleep(1_000);
  for (const api of fleet.apis) await fleet.restart(api);
  await sleep(1_000);
  const results = await load.stop();
  expect(results.length).toBeGreaterThan(500);
  const failed = results.filter((r) => !(r.status === 200 || r.status === 201));
  expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
  const acknowledged = results.filter((r) => r.status === 201).map((r) => r.body.id as string);
  const { rows } = await fleet.onDatabase((db) =>
    db.query<{ id: string }>('select id from playlists where user_id = $1', [user.id]),
  );
  expect(rows.map((r) => r.id).sort()).toEqual([...acknowledged].sort());
  // The feed, read on any instance through the restarts: each creation once, none missing.
  const { seen, failures } = await reader.stop();
  expect(failures).toEqual([]);
  expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
  expect(seen.map((e) => e.resource.id).sort()).toEqual([...acknowledged].sort());
  // The webhook: every creation delivered through the restarts (at least once; one webhook-id each).
  const deadline = Date.now() + 30_000;
  const delivered = () => new Set(receiver.received.map((r) => r.event.resource.id));
  while (delivered().size < acknowledged.length && Date.now() < deadline) await sleep(200);
  await receiver.close();
  expect([...delivered()].sort()).toEqual([...acknowledged].sort());
  const ids = new Map(receiver.received.map((r) => [r.webhookId, r.event.id]));
  expect(ids.size).toBe(acknowledged.length);
  expect(receiver.received.every((r) => ids.get(r.webhookId) === r.event.id)).toBe(true);
}

export async function keepsWritesWholeThroughSigkill(fleet: Fleet): Promise<void> {
  const admin = await adminToken(fleet);
  const songIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const song = await fleet.call('POST', '/songs', {
      token: admin,
      body: { title: `Kill ${i}`, duration: 180 },
    });
    expect(song.status).toBe(201);
    songIds.push(song.body.id);
  }
  const user = await fleet.signUp('killed');
  // Each playlist is written in one transaction: the playlist and its five songs.
  const load = fleet.steadyLoad(80, (i) => ({
    method: 'POST',
    path: '/playlists',
    token: user.token,
    body: { name: `Whole ${i}`, songIds },
    ok: [201],
  }));
  await sleep(1_500);
  const victim = fleet.apis[1]!;
  expect(await victim.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
  await sleep(1_500);
  const results = await load.stop();
  const acknowledged = results.filter((r) => r.status === 201).map((r) => r.body.id as string);
  expect(acknowledged.length).toBeGreaterThan(100);
  const { rows } = await fleet.onDatabase((db) =>
    db.query<{ id: string; songs: number }>(
      `select p.id, (select count(*)::int from playlist_songs s where s.playlist_id = p.id) as songs
         from playlists p where p.user_id = $1`,
      [user.id],
    ),
  );
  // Every acknowledged write is there; whatever reached the database is whole.
  const stored = new Set(rows.map((r) => r.id));
  for (const id of acknowledged) expect(stored.has(id)).toBe(true);
  expect(rows.filter((r) => r.songs !== 5)).toEqual([]);
  // Requests lost with the process are at most what it was serving when it died; the rest of
  // the fleet answered everything else.
  expect(results.filter((r) => r.status !== 201).length).toBeLessThan(results.length * 0.1);
  await victim.start();
  await sleep(CHECK_INTERVAL_MS * 3);
}
