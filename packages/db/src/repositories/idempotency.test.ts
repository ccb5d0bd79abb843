import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  type IdempotencyClaim,
  releaseIdempotencyKey,
} from './idempotency';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

const claimOf = (overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  caller: `caller-${uuidv7()}`,
  key: 'key-1',
  method: 'POST',
  path: '/v1/artists',
  bodyHash: 'a'.repeat(64),
  attempt: uuidv7(),
  ...overrides,
});

const age = (claim: IdempotencyClaim, interval: string) =>
  sql`update idempotency_keys set created_at = now() - ${interval}::interval
    where caller = ${claim.caller} and key = ${claim.key}`.execute(database.db);

describe(`idempotency keys (${database.kind})`, () => {
  it('lets exactly one of many simultaneous claimers hold a key', async () => {
    const base = claimOf();
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => claimIdempotencyKey(database.db, { ...base, attempt: uuidv7() })),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await findIdempotencyKey(database.db, base)).toMatchObject({ state: 'pending', status: null });
    // Another caller's key of the same name is its own.
    expect(await claimIdempotencyKey(database.db, { ...base, caller: `${base.caller}-other` })).toBe(true);
  });

  it('stores the answer of the claim that holds the key, and only of that one', async () => {
    const claim = claimOf();
    expect(await claimIdempotencyKey(database.db, claim)).toBe(true);
    const answer = {
      status: 201,
      headers: { Location: '/v1/artists/x', ETag: '"abc"', 'Content-Type': 'application/json' },
      body: '{"id":"x"}',
    };
    expect(
      await completeIdempotencyKey(database.db, {
        ...claim,
        attempt: uuidv7(),
        answer: { ...answer, status: 500 },
      }),
    ).toBe(false);
    expect(await completeIdempotencyKey(database.db, { ...claim, answer })).toBe(true);
    expect(await findIdempotencyKey(database.db, claim)).toEqual({
      method: 'POST',
      path: '/v1/artists',
      bodyHash: claim.bodyHash,
      state: 'done',
      ...answer,
    });
    // A done record is not claimed again, nor released.
    expect(await claimIdempotencyKey(database.db, { ...claim, attempt: uuidv7() })).toBe(false);
    await releaseIdempotencyKey(database.db, claim);
    expect((await findIdempotencyKey(database.db, claim))?.state).toBe('done');
  });

  it('frees a released key for a new claim', async () => {
    const claim = claimOf();
    expect(await claimIdempotencyKey(database.db, claim)).toBe(true);
    await releaseIdempotencyKey(database.db, { ...claim, attempt: uuidv7() });
    expect(await findIdempotencyKey(database.db, claim)).toBeDefined();
    await releaseIdempotencyKey(database.db, claim);
    expect(await findIdempotencyKey(database.db, claim)).toBeUndefined();
    expect(await claimIdempotencyKey(database.db, { ...claim, attempt: uuidv7() })).toBe(true);
  });

  it('forgets a key after 24 hours, and a pending claim whose request died after its lease', async () => {
    const done = claimOf();
    await claimIdempotencyKey(database.db, done);
    await completeIdempotencyKey(database.db, { ...done, answer: { status: 201, headers: {}, body: '{}' } });
    await age(done, '23 hours');
    expect(await findIdempotencyKey(database.db, done)).toBeDefined();
    await age(done, '24 hours 1 second');
    expect(await findIdempotencyKey(database.db, done)).toBeUndefined();
    const again = { ...done, attempt: uuidv7(), bodyHash: 'b'.repeat(64) };
    expect(await claimIdempotencyKey(database.db, again)).toBe(true);
    expect(await findIdempotencyKey(database.db, done)).toMatchObject({
      state: 'pending',
      bodyHash: again.bodyHash,
    });

    const abandoned = claimOf();
    await claimIdempotencyKey(database.db, abandoned);
    await age(abandoned, '1 minute');
    expect(await claimIdempotencyKey(database.db, { ...abandoned, attempt: uuidv7() })).toBe(false);
    await age(abandoned, '3 minutes');
    expect(await findIdempotencyKey(database.db, abandoned)).toBeUndefined();
    const taker = { ...abandoned, attempt: uuidv7() };
    expect(await claimIdempotencyKey(database.db, taker)).toBe(true);
    // The request that died cannot overwrite the new claim's answer if it comes back after all.
    const answer = { status: 201, headers: {}, body: '{}' };
    expect(await completeIdempotencyKey(database.db, { ...abandoned, answer })).toBe(false);
    expect(await completeIdempotencyKey(database.db, { ...taker, answer })).toBe(true);
  });
});
