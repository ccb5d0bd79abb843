import { describe, expect, it } from 'vitest';
import { createHashPool, hashPassword, verifyPassword } from './password';

describe('passwords', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse battery')).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('returns false, after doing the same work, for an unknown account or a corrupt hash', async () => {
    expect(await verifyPassword(null, 'anything at all')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'anything at all')).toBe(false);
  });
});

describe('createHashPool', () => {
  it('runs no more threads than its size, hands each at most `depth` jobs, and finishes every job', async () => {
    const pool = createHashPool(2, 2);
    try {
      const stored = await pool.run<string>({ op: 'hash', password: 'pool password' });
      const jobs = Array.from({ length: 9 }, (_, i) =>
        pool.run<boolean>({
          op: 'verify',
          hash: stored,
          password: i % 3 === 0 ? 'pool password' : `wrong ${i}`,
        }),
      );
      expect(pool.stats()).toEqual({ workers: 2, dispatched: 4, waiting: 5 });
      expect(await Promise.all(jobs)).toEqual([true, false, false, true, false, false, true, false, false]);
      expect(pool.stats()).toEqual({ workers: 2, dispatched: 0, waiting: 0 });
    } finally {
      await pool.close();
    }
  });

  it('fails the jobs of a stopped thread, and starts a new thread for the next job', async () => {
    const pool = createHashPool(1);
    const inFlight = pool.run<string>({ op: 'hash', password: 'never finished' });
    await pool.close();
    await expect(inFlight).rejects.toThrow(/hashing thread exited/);
    expect(pool.stats().workers).toBe(0);
    await expect(pool.run<string>({ op: 'hash', password: 'after restart' })).resolves.toMatch(
      /^\$argon2id\$/,
    );
    await pool.close();
  });

  it('reports a job the library rejects as an error, and keeps the thread', async () => {
    const pool = createHashPool(1);
    try {
      await expect(pool.run({ op: 'verify', hash: 'not-a-hash', password: 'x' })).rejects.toThrow();
      expect(pool.stats().workers).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
