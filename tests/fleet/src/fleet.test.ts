import { afterAll, beforeAll, describe, it } from 'vitest';
import { Cleanup } from './processes';
import { holdsBudgetAcrossInstances, replaysIdempotencyKeyAcrossInstances } from './scenarios/budgets';
import { type Consoles, refreshesInTwoTabsAtOnce, startConsoles } from './scenarios/consoles';
import { type Fleet, startFleet } from './scenarios/fleet';
import { rotatesSigningKey } from './scenarios/key-rotation';
import { limitsWrongPasswordsAcrossInstances } from './scenarios/login-limit';
import { ridesOutPoolerOutage } from './scenarios/pooler-outage';
import { readsFromReplica } from './scenarios/replica';
import { migratesOnce, refusesPoolerWithoutSetting } from './scenarios/start-up';
import {
  keepsWritesWholeThroughSigkill,
  readsThroughSchemaChanges,
  survivesRollingRestart,
} from './scenarios/under-load';

/**
 * The service as production runs it, from the outside, with real components: PostgreSQL and a
 * streaming replica of it, each behind a stock transaction-mode PgBouncer, three API instances
 * started together on an empty database,
 * HAProxy in front of them without retries, and two consoles behind HAProxy too (no sticky
 * sessions). Needs `pnpm build` first, PostgreSQL's tools (initdb, pg_basebackup), Debian's
 * pgbouncer, haproxy and chromium. Scenarios run in order on one fleet
 * (starting it takes most of the run), each in a module of its own under ./scenarios.
 */

const cleanup = new Cleanup();
let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet(cleanup);
}, 180_000);

afterAll(() => cleanup.run(), 60_000);

// In this order, each on the fleet the one before left (new columns, the new signing key).
const scenarios: Array<[string, (fleet: Fleet) => Promise<void>]> = [
  ['starts three instances together on an empty database, migrating it once', migratesOnce],
  [
    'refuses to start through the pooler without DATABASE_POOLER, saying why in one line',
    refusesPoolerWithoutSetting,
  ],
  [
    'checks no more than the limit of 30 simultaneous wrong passwords for one email, across instances',
    limitsWrongPasswordsAcrossInstances,
  ],
  [
    'holds a request budget across two instances within a few percent, stopping the caller on both',
    holdsBudgetAcrossInstances,
  ],
  [
    'answers an Idempotency-Key repeated on other instances with the first answer, creating once',
    replaysIdempotencyKeyAcrossInstances,
  ],
  [
    'reads the catalogue from the replica through its own PgBouncer, each writer reading its own writes',
    readsFromReplica,
  ],
  ['serves every read while columns and a table are added under load', readsThroughSchemaChanges],
  [
    'loses no request and no write through a rolling restart of every instance, and its feed reader misses none',
    survivesRollingRestart,
  ],
  [
    'keeps every write whole when an instance is killed (SIGKILL) in the middle of them',
    keepsWritesWholeThroughSigkill,
  ],
  ['rotates the signing key through rolling restarts without refusing a token in between', rotatesSigningKey],
  [
    'answers liveness but not readiness while PgBouncer is down, and recovers by itself',
    ridesOutPoolerOutage,
  ],
];

describe('a fleet behind PgBouncer and HAProxy', () => {
  for (const [name, scenario] of scenarios) it(name, () => scenario(fleet));
});

describe('two consoles behind HAProxy, two tabs of one browser', () => {
  let consoles: Consoles;

  beforeAll(async () => {
    consoles = await startConsoles(fleet, cleanup);
  }, 120_000);

  it('never signs the user out when both tabs find the access token expired at once', () =>
    refreshesInTwoTabsAtOnce(fleet, consoles));
});
