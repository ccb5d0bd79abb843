// Sign-in throughput against bare argon2id verification (alternating), and the p99 of a song
// detail load running beside the sign-ins.
import { availableParallelism } from 'node:os';
import { argonAsyncRate, argonThreadsRate, closeArgonThreads } from './argon';
import { alternate } from './cases';
import type { Fixtures } from './fixtures';
import { leanClosedLoop, median, openLoop, summarise } from './load';
import type { Req, Sample } from './measure';
import { CLK_TCK, cpuTicks, machineBusyTicks } from './proc';
import type { Results, Row } from './report';
import { BENCH_PASSWORD } from './seed';
import { LOGIN_CONNECTIONS, log, READS_DURING_LOGIN_RATE, SECONDS } from './settings';
import { API, type Servers } from './stack';

export const LOGIN_CASE = 'POST /v1/auth/login';
const READS_DURING_LOGIN = `  GET /v1/songs/{id} @${READS_DURING_LOGIN_RATE} req/s during login`;

export interface LoginFigures {
  /** Bare argon2id verifications per second: one thread per core, and the library's async verify. */
  argon: number;
  argonAsync: number;
  /** Where the machine's cores went in each login round. */
  loginCores: string[];
}

export async function runLoginCase(
  f: Fixtures,
  detailApi: Req[],
  servers: Servers,
  settle: () => Promise<void>,
  results: Results,
): Promise<LoginFigures> {
  const apiPid = servers.api.pid;
  // Many accounts, as in a real sign-in storm: with one account signing in 150 times a second,
  // every new session's foreign-key check would lock the same users row.
  const loginReqs: Req[] = f.loginEmails.map((address) => ({
    method: 'POST',
    path: '/v1/auth/login',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: address, password: BENCH_PASSWORD }),
  }));
  const logins: Sample[] = [];
  const reads: Sample[] = [];
  const argons: number[] = [];
  const argonsAsync: number[] = [];
  const loginCores: string[] = [];
  const loginRound = async () => {
    const machine0 = machineBusyTicks();
    const api0 = cpuTicks(apiPid);
    const loop0 = cpuTicks(apiPid, apiPid);
    const generator0 = process.cpuUsage();
    const [l, rd] = await Promise.all([
      leanClosedLoop(servers.api, API, loginReqs, { connections: LOGIN_CONNECTIONS, seconds: SECONDS }),
      openLoop(servers.api, API, detailApi, { rate: READS_DURING_LOGIN_RATE, seconds: SECONDS }),
    ]);
    logins.push(l);
    reads.push(rd);
    // Where the machine's cores went during the round (seconds of CPU per second).
    const generator = process.cpuUsage(generator0);
    const machine = (machineBusyTicks() - machine0) / CLK_TCK / SECONDS;
    const apiCores = (cpuTicks(apiPid) - api0) / CLK_TCK / SECONDS;
    // The API's main thread (event loop); the rest of its CPU is the hashing threads'.
    const loopCores = (cpuTicks(apiPid, apiPid) - loop0) / CLK_TCK / SECONDS;
    // Both loads watched the same database backends over the same seconds: count them once.
    const db = (l.dbCpuUsPerReq * l.rps) / 1e6;
    const gen = (generator.user + generator.system) / 1e6 / SECONDS;
    loginCores.push(
      `API ${apiCores.toFixed(2)} (event loop ${loopCores.toFixed(2)}, ${((loopCores * 1e3) / l.rps).toFixed(2)} ms a login), database ${db.toFixed(2)}, load generator ${gen.toFixed(2)}, ` +
        `rest ${Math.max(0, machine - apiCores - db - gen).toFixed(2)}, idle ${Math.max(0, availableParallelism() - machine).toFixed(2)}`,
    );
  };
  // Warm both sides (the baseline's threads start here, not in its first round). A sign-in
  // costs ~100 times a read, so 1 s (as elsewhere) is only ~15 per connection: the login
  // path's JIT was still warming through the first measured rounds.
  await leanClosedLoop(servers.api, API, loginReqs, { connections: LOGIN_CONNECTIONS, seconds: SECONDS });
  await argonThreadsRate(f.hash, BENCH_PASSWORD, 1);
  await alternate(settle, loginRound, async () => {
    argons.push(await argonThreadsRate(f.hash, BENCH_PASSWORD, SECONDS));
    await settle();
    argonsAsync.push(await argonAsyncRate(f.hash, BENCH_PASSWORD, SECONDS));
  });
  await closeArgonThreads();
  const argon = median(argons);
  const argonAsync = median(argonsAsync);
  const L = summarise(logins);
  const loginRow: Row = {
    name: LOGIN_CASE,
    api: L,
    baselineLabel: `bare argon2id verify, ${availableParallelism()} threads`,
    baseline: {
      rps: argon,
      p50: 0,
      p99: 0,
      cpuUsPerReq: 0,
      dbCpuUsPerReq: 0,
      peakRssMb: 0,
      errors: 0,
      non2xx: 0,
    },
    ratio: L.rps / argon,
  };
  const readsRow: Row = { name: READS_DURING_LOGIN, api: summarise(reads) };
  results.rows.push(loginRow, readsRow);
  results.rounds[loginRow.name] = { api: logins, baseline: [] };
  results.rounds[readsRow.name] = { api: reads, baseline: [] };
  log(
    `login: ${L.rps} req/s vs bare argon2id ${argon}/s on ${availableParallelism()} threads -> ${loginRow.ratio!.toFixed(2)}x` +
      ` (the library's async verify, ${availableParallelism()} in flight: ${argonAsync}/s -> ${(L.rps / argonAsync).toFixed(2)}x)`,
  );
  for (const [i, line] of loginCores.entries()) log(`  login round ${i + 1}, cores used: ${line}`);
  return { argon, argonAsync, loginCores };
}
