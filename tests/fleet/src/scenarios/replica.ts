import { expect } from 'vitest';
import { ADMIN, type Fleet, METRICS_TOKEN } from './fleet';

/** One sample of an instance's `/metrics` (the API's own tests read it with a Prometheus parser). */
async function sample(url: string, series: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  if (!line) throw new Error(`${series} is not in ${url}/metrics`);
  return Number(line.slice(series.length + 1));
}

/**
 * The catalogue is read from the replica through its own PgBouncer, by every instance, while a
 * writer going from instance to instance (the balancer) always reads what it just wrote.
 */
export async function readsFromReplica(fleet: Fleet): Promise<void> {
  const login = await fleet.call('POST', '/auth/login', { body: ADMIN });
  expect(login.status).toBe(200);
  const admin = login.body.accessToken as string;
  const reader = await fleet.signUp('replica-reader');
  const replicaReads = () =>
    Promise.all(fleet.apis.map((api) => sample(api.url, 'music_db_routed_reads_total{target="replica-1"}')));
  const before = await replicaReads();

  for (let i = 0; i < 12; i++) {
    const made = await fleet.call('POST', '/songs', {
      token: admin,
      body: { title: `Replicated ${i}`, duration: 180 },
    });
    expect(made.status).toBe(201);
    // At once, through whichever instance the balancer picks: the writer sees its write.
    const own = await fleet.call('GET', `/songs/${made.body.id}`, { token: admin });
    expect(own.status, `song ${i} read back by its writer`).toBe(200);
    expect(own.body.title).toBe(`Replicated ${i}`);
    const renamed = await fleet.call('PATCH', `/songs/${made.body.id}`, {
      token: admin,
      body: { title: `Renamed ${i}` },
    });
    expect(renamed.status).toBe(200);
    const list = await fleet.call('GET', `/songs?ids=${made.body.id}`, { token: admin });
    expect(list.body.data[0]?.title, `song ${i} listed by its writer`).toBe(`Renamed ${i}`);
  }
  for (let i = 0; i < 30; i++) {
    expect((await fleet.call('GET', '/songs?limit=5', { token: reader.token })).status).toBe(200);
  }

  const after = await replicaReads();
  for (const [i, api] of fleet.apis.entries()) {
    expect(await sample(api.url, 'music_db_replica_up{replica="replica-1"}'), api.name).toBe(1);
    expect(after[i]! - before[i]!, `${api.name}'s reads from the replica`).toBeGreaterThan(0);
  }
}
