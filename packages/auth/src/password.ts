import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * OWASP's minimum argon2id profile (m=19 MiB, t=2, p=1). `algorithm: 2` is the package's
 * `Algorithm.Argon2id`, an ambient const enum that isolated modules cannot import.
 */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Where `@node-rs/argon2` lives for this module (or for the bundle that contains it). */
const ARGON2_MODULE = createRequire(import.meta.url).resolve('@node-rs/argon2');

/**
 * One hashing thread: takes jobs from its port one at a time and runs them synchronously, so a
 * job queued behind another starts the moment that one ends, without waiting for the main thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'hash'
      ? argon2.hashSync(job.password, workerData.options)
      : argon2.verifySync(job.hash, job.password);
    parentPort.postMessage({ id: job.id, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
`;

type HashJob = { op: 'hash'; password: string } | { op: 'verify'; hash: string; password: string };

interface Task {
  job: HashJob;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  outstanding: Map<number, Task>;
}

export interface HashPoolStats {
  /** Hashing threads alive. */
  workers: number;
  /** Jobs handed to a thread (running, or next in that thread's line). */
  dispatched: number;
  /** Jobs waiting on the main thread for a thread to have room. */
  waiting: number;
}

/**
 * Hashing is the service's most expensive CPU work (~13 ms of a core each). It runs on `size`
 * dedicated threads (one per core), so no more hashes run at once than there are cores and the
 * rest of the API keeps a share of the CPU. Each thread is handed up to `depth` jobs, so it goes
 * from one hash straight to the next: with libuv's pool (the package's async API), every next hash
 * waited for the busy main thread to start it, and 0.1-0.3 of 2 cores idled under a login load
 * (docs/performance.md). Threads start on first use, and they do not keep an idle process alive.
 */
export function createHashPool(size: number, depth = 2) {
  const slots: Slot[] = [];
  const waiting: Task[] = [];
  let nextId = 1;

  const spawn = (): Slot => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { argon2: ARGON2_MODULE, options: ARGON2_OPTIONS },
    });
    worker.unref();
    const slot: Slot = { worker, outstanding: new Map() };
    worker.on('message', (message: { id: number; value?: unknown; error?: string }) => {
      const task = slot.outstanding.get(message.id);
      if (!task) return;
      slot.outstanding.delete(message.id);
      if (slot.outstanding.size === 0) worker.unref();
      if (message.error !== undefined) task.reject(new Error(message.error));
      else task.resolve(message.value);
      pump();
    });
    // A thread that dies (it should not) fails its own jobs; the next job starts a new one.
    const fail = (error: Error) => {
      const at = slots.indexOf(slot);
      if (at >= 0) slots.splice(at, 1);
      for (const task of slot.outstanding.values()) task.reject(error);
      slot.outstanding.clear();
      pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`hashing thread exited (code ${code})`)));
    slots.push(slot);
    return slot;
  };

  /** An idle thread, else a new one while below `size`, else the least busy one with room. */
  const pick = (): Slot | undefined => {
    let best: Slot | undefined;
    for (const slot of slots) {
      if (slot.outstanding.size < depth && (!best || slot.outstanding.size < best.outstanding.size))
        best = slot;
    }
    if (best?.outstanding.size === 0) return best;
    if (slots.length < size) return spawn();
    return best;
  };

  function pump() {
    while (waiting.length > 0) {
      const slot = pick();
      if (!slot) return;
      const task = waiting.shift()!;
      const id = nextId++;
      slot.outstanding.set(id, task);
      slot.worker.ref();
      slot.worker.postMessage({ id, ...task.job });
    }
  }

  return {
    run<T>(job: HashJob): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push({ job, resolve: resolve as (value: unknown) => void, reject });
        pump();
      });
    },
    stats(): HashPoolStats {
      return {
        workers: slots.length,
        dispatched: slots.reduce((n, slot) => n + slot.outstanding.size, 0),
        waiting: waiting.length,
      };
    },
    /** Stops every thread; their jobs fail. Jobs submitted later start new threads. */
    async close(): Promise<void> {
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
    },
  };
}

const pool = createHashPool(Math.max(1, availableParallelism()));

export function hashPassword(password: string): Promise<string> {
  return pool.run<string>({ op: 'hash', password });
}

/** A hash of a random password: verifying against it costs what a real verify costs. */
let dummyHash: Promise<string> | undefined;

/**
 * Verifies `password` against `passwordHash`; with no hash (unknown account) it verifies
 * against a dummy so both failure paths take the same time and reveal nothing. A corrupt
 * stored hash verifies nothing.
 */
export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}-${Date.now()}`);
  const target = passwordHash ?? (await dummyHash);
  const ok = await pool.run<boolean>({ op: 'verify', hash: target, password }).catch(() => false);
  return passwordHash ? ok : false;
}
