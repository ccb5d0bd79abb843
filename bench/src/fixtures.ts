import { createDatabase } from '@music/db';
import pg from 'pg';
import { BENCH_PASSWORD, SIZES, seedBenchData } from './seed';
import { CONNECTIONS, log } from './settings';
import type { Stack } from './stack';

/** The seeded rows the cases request. */
export interface Fixtures {
  /** A listener with a playlist of 20 songs. */
  email: string;
  /** The seeded admin, for the song creations of the write cases. */
  adminEmail: string;
  playlistId: string;
  /** One empty playlist of that listener per connection, for the add/remove case. */
  scratch: string[];
  songIds: string[];
  /** A stored password hash, for the bare argon2id baseline. */
  hash: string;
  /** Every seeded listener shares the bench password: the login case signs in as each in turn. */
  loginEmails: string[];
}

export async function seedScratchDatabase(stack: Stack): Promise<Fixtures> {
  log(`seeding ${stack.dbName}: ${JSON.stringify(SIZES)}`);
  const database = await createDatabase({ databaseUrl: stack.databaseUrl });
  await database.migrate();
  await database.close();
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  const seeded = Date.now();
  await seedBenchData(client);
  log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  const { rows: owner } = await client.query(
    `select u.id, u.email, p.id as playlist_id from users u join playlists p on p.user_id = u.id
     where u.role = 'user' order by u.email, p.id limit 1`,
  );
  const { id: ownerId, email, playlist_id: playlistId } = owner[0];
  const scratch: string[] = (
    await client.query(
      `insert into playlists (id, user_id, name) select gen_random_uuid(), $1, 'Bench scratch ' || i
       from generate_series(1, $2::int) as i returning id`,
      [ownerId, CONNECTIONS],
    )
  ).rows.map((r: { id: string }) => r.id);
  const songIds: string[] = (
    await client.query('select id from songs order by random() limit 2000')
  ).rows.map((r: { id: string }) => r.id);
  const { hash } = (await client.query('select password_hash as hash from users limit 1')).rows[0];
  const loginEmails: string[] = (
    await client.query(`select email from users where role = 'user' order by random()`)
  ).rows.map((r: { email: string }) => r.email);
  const adminEmail: string = (await client.query(`select email from users where role = 'admin' limit 1`))
    .rows[0].email;
  await client.end();
  return { email, adminEmail, playlistId, scratch, songIds, hash, loginEmails };
}

/** The bearer header of a fresh sign-in as `email`. */
export async function signIn(api: string, email: string): Promise<Record<string, string>> {
  const login = await fetch(`${api}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  return { authorization: `Bearer ${token}` };
}

/** An API key of the signed-in user's, reading the catalogue: the key case's credential. */
export async function makeApiKey(
  api: string,
  session: Record<string, string>,
): Promise<Record<string, string>> {
  const res = await fetch(`${api}/v1/api-keys`, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['catalogue:read'] }),
  });
  if (res.status !== 201) throw new Error(`API key failed: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}
