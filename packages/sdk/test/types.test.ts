import { describe, expect, it } from 'vitest';
import { staleFiles } from '../scripts/generate';

describe('the generated types', () => {
  it('are what the API document generates now (else: pnpm --filter @music/sdk types:update)', async () => {
    expect(await staleFiles()).toEqual([]);
  });
});
