/**
 * Bare argon2id verification on this machine, the login case's baseline, measured two ways in a
 * process doing nothing else (this one, between API rounds):
 * - `argonThreadsRate`: one thread per core, each verifying in a loop (`verifySync`). Nothing
 *   else runs, so no core ever waits: this is the machine's limit, and the login target's baseline.
 * - `argonAsyncRate`: the library's async `verify`, as many in flight as cores, each next one
 *   started from the main thread. Every hand-over leaves a core briefly idle; on these VMs that
 *   cost 0.17-0.22 of 2 cores (8-25% below the limit in nine bench runs). Printed for reference:
 *   it is what a plain `await verify()` loop gets, and the baseline this benchmark used until
 *   2026-11-23.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { verify } from '@node-rs/argon2';

const ARGON2_MODULE = createRequire(import.meta.url).resolve('@node-rs/argon2');

/** Each thread, told a deadline, verifies until it passes and answers how many it did. */
const LOOP_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
parentPort.on('message', ({ hash, password, until }) => {
  let done = 0;
  while (Date.now() < until) {
    if (!argon2.verifySync(hash, password)) throw new Error('bench password does not verify');
    done++;
  }
  parentPort.postMessage(done);
});
`;

let threads: Worker[] | undefined;

export async function argonThreadsRate(hash: string, password: string, seconds: number): Promise<number> {
  threads ??= Array.from(
    { length: availableParallelism() },
    () => new Worker(LOOP_SOURCE, { eval: true, workerData: { argon2: ARGON2_MODULE } }),
  );
  const started = Date.now();
  const until = started + seconds * 1000;
  const counts = await Promise.all(
    threads.map(
      (worker) =>
        new Promise<number>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage({ hash, password, until });
        }),
    ),
  );
  for (const worker of threads) worker.removeAllListeners('error');
  // A thread finishes the verify under way at the deadline: divide by the time really spent.
  return Math.round((counts.reduce((a, b) => a + b, 0) * 1000) / (Date.now() - started));
}

export async function argonAsyncRate(hash: string, password: string, seconds: number): Promise<number> {
  let done = 0;
  const started = Date.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: availableParallelism() }, async () => {
      while (Date.now() < until) {
        if (!(await verify(hash, password))) throw new Error('bench password does not verify');
        done++;
      }
    }),
  );
  return Math.round((done * 1000) / (Date.now() - started));
}

export async function closeArgonThreads(): Promise<void> {
  await Promise.all((threads ?? []).map((worker) => worker.terminate()));
  threads = undefined;
}
