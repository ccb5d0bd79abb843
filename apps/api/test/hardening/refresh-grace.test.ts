import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectUnauthorized, pair, TRANSPORTS, useTokenRig } from './token-rig';

/**
 * Refresh tokens spent twice by one client (version 1.2): an integrator's two workers refresh
 * with the same token at the same moment, from two processes. Within REFRESH_REUSE_GRACE_SECONDS
 * both get a new pair of the same session and both pairs work; a replay later than that is theft
 * and revokes the session, as before.
 */

const GRACE_SECONDS = 2;
const { rig, me, refresh } = useTokenRig({ REFRESH_REUSE_GRACE_SECONDS: GRACE_SECONDS });

/**
 * One worker: a separate node process that waits for `at` (epoch ms) and then refreshes, printing
 * the status and body. Two of them started together race like two processes of an integrator.
 */
function worker(url: string, refreshToken: string, at: number): Promise<{ status: number; body: unknown }> {
  const script = `
    const [url, token, at] = process.argv.slice(1);
    const wait = Number(at) - Date.now();
    setTimeout(async () => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: token }) });
      process.stdout.write(JSON.stringify({ status: res.status, body: await res.json() }));
    }, Math.max(0, wait));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, `${url}/auth/refresh`, refreshToken, String(at)]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`worker exited ${code}`)),
    );
  });
}

describe('two workers refreshing with one token', () => {
  it('both get a new pair of the same session from two processes and two instances, in 5 rounds', async () => {
    for (let round = 0; round < 5; round++) {
      const user = await rig.api.signUp();
      // Both processes are up and waiting before the moment comes.
      const at = Date.now() + 700;
      const answers = await Promise.all([
        worker(rig.api.url, user.refreshToken, at),
        worker(rig.sibling.url, user.refreshToken, at),
      ]);
      expect(
        answers.map((a) => a.status),
        `round ${round}`,
      ).toEqual([200, 200]);
      const pairs = answers.map((a) => a.body as { accessToken: string; refreshToken: string });
      for (const [i, tokens] of pairs.entries()) {
        for (const transport of TRANSPORTS) {
          expect(
            (await me(transport, tokens.accessToken, 'sibling')).status,
            `round ${round} worker ${i}`,
          ).toBe(200);
        }
        // Each worker's new refresh token works on, and its next one too.
        const next = await refresh('v1', tokens.refreshToken);
        expect(next.status, `round ${round} worker ${i} refreshes again`).toBe(200);
        expect((await me('v1', pair(next).accessToken)).status).toBe(200);
      }
    }
  });

  it('treats a replay after the grace period as theft: the session ends everywhere', async () => {
    const user = await rig.api.signUp();
    const first = await refresh('v1', user.refreshToken);
    expect(first.status).toBe(200);
    const current = pair(first);
    // Past the grace period by the database's clock (no wall-clock wait needed to show it).
    await sql`update refresh_tokens set rotated_at = rotated_at - make_interval(secs => ${GRACE_SECONDS + 1})
      where rotated_at is not null`.execute(rig.api.database.db);
    expectUnauthorized('trpc', await refresh('trpc', user.refreshToken, 'sibling'), 'late replay');
    for (const transport of TRANSPORTS) {
      expectUnauthorized(transport, await me(transport, current.accessToken), `${transport} after theft`);
      expectUnauthorized(transport, await refresh(transport, current.refreshToken), `${transport} refresh`);
    }
  });

  it('also counts the grace period on the real clock: a repeat 1 s later works, 3 s later it is theft', async () => {
    const user = await rig.api.signUp();
    expect((await refresh('v1', user.refreshToken)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await refresh('v1', user.refreshToken, 'sibling')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expectUnauthorized('v1', await refresh('v1', user.refreshToken), 'replay 3 s later');
  });
});
