import { randomBytes } from 'node:crypto';
import {
  connectSession,
  findPostgresTools,
  type PostgresInstance,
  type SqlSession,
  sleep,
  startPostgres,
  startReplica,
  until,
} from '@music/fleet/components';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Env } from '../../src/runtime/env';
import { type RunningServer, startServer } from '../../src/server';
import { describeOnPostgres } from '../hardening/pg-faults';
import { type Client, createClient, testEnv, uniqueEmail } from '../support/harness';
import { parseExposition, sampleSum } from '../support/prometheus';

/**
 * Read replicas against a real primary and a real streaming standby of this machine's
 * PostgreSQL (initdb, pg_basebackup): catalogue reads are served by the replica; a writer reads
 * its own writes on every instance while the replica's replay is paused; a replica that lags or
 * stops costs no request.
 */

const TOKEN = 'metrics-token-of-the-replica-tests';
const tools = findPostgresTools();

describeOnPostgres('read replicas', () => {
  let primary: PostgresInstance;
  let replica: PostgresInstance;
  let standby: SqlSession;
  const servers: RunningServer[] = [];
  let a: Client;
  let b: Client;
  let impatient: Client;
  let urls: { a: string; b: string; impatient: string };

  const start = async (overrides: Partial<Env>) => {
    const server = await startServer(
      testEnv({
        DATABASE_URL: primary.url('music'),
        readUrls: [replica.url('music')],
        METRICS_TOKEN: TOKEN,
        ...overrides,
      }),
    );
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    if ('unavailable' in tools) throw new Error(tools.unavailable);
    primary = await startPostgres(tools);
    await primary.createDatabase('music');
    replica = await startReplica(tools, primary);
    standby = await connectSession(replica.url('music'));
    // Patient instances (a minute of lag allowed) show read-your-writes; the impatient one
    // shows a lagging replica set aside.
    const [one, two, three] = [
      await start({ REPLICA_MAX_LAG_SECONDS: 60 }),
      await start({ REPLICA_MAX_LAG_SECONDS: 60 }),
      await start({ REPLICA_MAX_LAG_SECONDS: 1 }),
    ];
    urls = { a: one.url, b: two.url, impatient: three.url };
    a = createClient(`${one.url}/v1`);
    b = createClient(`${two.url}/v1`);
    impatient = createClient(`${three.url}/v1`);
  }, 120_000);

  afterAll(async () => {
    await standby?.query('select pg_wal_replay_resume()').catch(() => {});
    await standby?.end().catch(() => {});
    await Promise.all(servers.map((server) => server.close({ graceMs: 500 }).catch(() => {})));
    await replica?.destroy();
    await primary?.destroy();
  }, 60_000);

  async function signUp(client: Client, role: 'user' | 'admin' = 'user') {
    const email = uniqueEmail(role);
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const made = await client.request('POST', '/users', {
      body: { username: `${role} ${email.slice(0, 10)}`, email, password },
    });
    expect(made.status).toBe(201);
    if (role === 'admin') {
      const direct = await connectSession(primary.url('music'));
      await direct.query(`update users set role = 'admin' where id = $1`, [made.body.id]);
      await direct.end();
    }
    const login = await client.request('POST', '/auth/login', { body: { email, password } });
    expect(login.status).toBe(200);
    return { id: made.body.id as string, token: login.body.accessToken as string };
  }

  const scrape = async (url: string) => {
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return parseExposition(await res.text());
  };
  const replicaReads = async (url: string) =>
    sampleSum(await scrape(url), 'music_db_routed_reads_total', { target: 'replica-1' });

  /** Waits until the standby has replayed everything the primary has written so far. */
  async function caughtUp() {
    const direct = await connectSession(primary.url('music'));
    const { rows } = await direct.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    await direct.end();
    await until(
      async () => {
        const { rows: done } = await standby.query<{ ok: boolean }>(
          'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok',
          [rows[0]!.lsn],
        );
        return done[0]!.ok || undefined;
      },
      15_000,
      'the standby to catch up',
    );
    // The instances' next check (every 500 ms) sees it too.
    await sleep(1_200);
  }

  async function makeSong(client: Client, token: string, title: string) {
    const song = await client.request('POST', '/songs', { token, body: { title, duration: 200 } });
    expect(song.status, song.text).toBe(201);
    return song.body.id as string;
  }

  it('serves catalogue reads from the replica, and what is not a catalogue read from the primary', async () => {
    const admin = await signUp(a, 'admin');
    const reader = await signUp(a);
    const songId = await makeSong(a, admin.token, 'Replicated song');
    await caughtUp();
    const before = await replicaReads(urls.a);
    for (let i = 0; i < 5; i++) {
      expect((await a.request('GET', `/songs/${songId}`, { token: reader.token })).status).toBe(200);
    }
    expect((await a.request('GET', '/songs?limit=5', { token: reader.token })).status).toBe(200);
    expect((await a.request('GET', '/auth/me', { token: reader.token })).status).toBe(200);
    // The console's transport too: the same procedures, the same routing.
    const rpc = await fetch(
      `${urls.a}/trpc/songs.get?input=${encodeURIComponent(JSON.stringify({ songId }))}`,
      {
        headers: { authorization: `Bearer ${reader.token}` },
      },
    );
    expect(rpc.status).toBe(200);
    expect(await replicaReads(urls.a)).toBe(before + 7);

    // Shown by what is served: with the standby held back, a song written now is not on it, and
    // a reader who did not write it is answered from the standby.
    await standby.query('select pg_wal_replay_pause()');
    try {
      const unseen = await makeSong(a, admin.token, 'Written while the standby waits');
      const listed = await b.request('GET', `/songs?ids=${unseen}`, { token: reader.token });
      expect(listed.body.data).toEqual([]);
      expect((await b.request('GET', `/songs?ids=${unseen}`, { token: admin.token })).body.data).toHaveLength(
        1,
      );
      // Asked for by its id, a record the standby lacks is looked for on the primary: whoever was
      // handed the id of something just made finds it, while lists may be a moment old.
      const before = await replicaReads(urls.b);
      const found = await b.request('GET', `/songs/${unseen}`, { token: reader.token });
      expect(found.status).toBe(200);
      expect(found.body.title).toBe('Written while the standby waits');
      expect(await replicaReads(urls.b)).toBe(before);
      const missing = await b.request('GET', '/songs/01890000-0000-7000-8000-000000000000', {
        token: reader.token,
      });
      expect(missing.status).toBe(404);
    } finally {
      await standby.query('select pg_wal_replay_resume()');
    }
  });

  it('lets a writer read its own writes on every instance while the replica lags', async () => {
    const admin = await signUp(a, 'admin');
    const reader = await signUp(b);
    const songId = await makeSong(a, admin.token, 'Before the pause');
    await caughtUp();
    await standby.query('select pg_wal_replay_pause()');
    try {
      const renamed = await a.request('PATCH', `/songs/${songId}`, {
        token: admin.token,
        body: { title: 'After the pause' },
      });
      expect(renamed.status, renamed.text).toBe(200);
      for (const client of [a, b]) {
        const own = await client.request('GET', `/songs/${songId}`, { token: admin.token });
        expect(own.body.title).toBe('After the pause');
        const list = await client.request('GET', `/songs?ids=${songId}`, { token: admin.token });
        expect(list.body.data[0].title).toBe('After the pause');
      }
      // Someone else may see the song a moment old: the patient instance serves them the standby's.
      const other = await b.request('GET', `/songs/${songId}`, { token: reader.token });
      expect(other.body.title).toBe('Before the pause');
      // The impatient instance (1 s at most) has set the held-back standby aside by now.
      await sleep(2_500);
      const fresh = await impatient.request('GET', `/songs/${songId}`, { token: reader.token });
      expect(fresh.body.title).toBe('After the pause');
      const families = await scrape(urls.impatient);
      expect(sampleSum(families, 'music_db_replica_up', { replica: 'replica-1' })).toBe(1);
      expect(sampleSum(families, 'music_db_replica_lag_seconds', { replica: 'replica-1' })).toBeGreaterThan(
        1,
      );
    } finally {
      await standby.query('select pg_wal_replay_resume()');
    }
    await caughtUp();
    const caught = await b.request('GET', `/songs/${songId}`, { token: reader.token });
    expect(caught.body.title).toBe('After the pause');
  });

  it('loses no request when the replica stops, and reads from it again once it is back', async () => {
    const admin = await signUp(a, 'admin');
    const reader = await signUp(a);
    const songId = await makeSong(a, admin.token, 'Through a replica failure');
    await caughtUp();
    const statuses = new Map<number, number>();
    let reading = true;
    const readers = [a, b, impatient].map(async (client) => {
      while (reading) {
        for (const path of [`/songs/${songId}`, '/songs?limit=3', '/artists?limit=3', '/search?q=replica']) {
          const res = await client.request('GET', path, { token: reader.token });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }
    });
    await sleep(1_000);
    await replica.stop('immediate');
    await sleep(2_000);
    for (const url of Object.values(urls)) {
      expect((await fetch(`${url}/v1/health`)).status).toBe(200);
      expect(sampleSum(await scrape(url), 'music_db_replica_up', { replica: 'replica-1' })).toBe(0);
    }
    reading = false;
    await Promise.all(readers);
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(20);

    await replica.start();
    standby = await connectSession(replica.url('music'));
    await until(
      async () =>
        sampleSum(await scrape(urls.a), 'music_db_replica_up', { replica: 'replica-1' }) === 1
          ? true
          : undefined,
      20_000,
      'the replica to be in use again',
    );
    await caughtUp();
    const before = await replicaReads(urls.a);
    expect((await a.request('GET', `/songs/${songId}`, { token: reader.token })).status).toBe(200);
    expect(await replicaReads(urls.a)).toBe(before + 1);
  });
});
