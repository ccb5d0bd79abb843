import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

/**
 * OWASP's minimum argon2id profile (m=19 MiB, t=2, p=1). `algorithm: 2` is the package's
 * `Algorithm.Argon2id`, an ambient const enum that isolated modules cannot import.
 */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashing is the service's most expensive CPU work (~20-60 ms each). Running more hashes at
 * once than there are cores only makes every request slower and starves the rest of the API,
 * so a small semaphore queues the excess.
 */
export function createConcurrencyLimit(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

const limit = createConcurrencyLimit(Math.max(1, availableParallelism()));

export function hashPassword(password: string): Promise<string> {
  return limit(() => hash(password, ARGON2_OPTIONS));
}

/** A hash of a random password: verifying against it costs what a real verify costs. */
let dummyHash: Promise<string> | undefined;

/**
 * Verifies `password` against `passwordHash`; with no hash (unknown account) it verifies
 * against a dummy so both failure paths take the same time and reveal nothing.
 */
export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}-${Date.now()}`);
  const target = passwordHash ?? (await dummyHash);
  const ok = await limit(() => verify(target, password).catch(() => false));
  return passwordHash ? ok : false;
}
