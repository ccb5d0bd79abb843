import { describe, expect, it } from 'vitest';
import { lsnOf } from './read-router';

describe('lsnOf', () => {
  it('reads a pg_lsn as the 64-bit position it stands for, ordered as PostgreSQL orders them', () => {
    expect(lsnOf('0/0')).toBe(0n);
    expect(lsnOf('16/B374D848')).toBe(0x16b374d848n);
    // Compared as numbers, not as text: 0/A00 < 0/1000 < 1/0.
    const positions = ['1/0', '0/1000', '0/A00', 'FF/FFFFFFFF'].map(lsnOf);
    expect([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(
      ['0/A00', '0/1000', '1/0', 'FF/FFFFFFFF'].map(lsnOf),
    );
    expect(lsnOf('FF/FFFFFFFF')).toBe((0xffn << 32n) | 0xffffffffn);
  });
});
