import { operationAt } from '@music/api-router';
import { afterAll, describe, expect, it } from 'vitest';
import { MATRIX, sendTo } from './authz-rows';
import { ACTORS, CODES, makeWorld, outcomeFor } from './authz-rules';
import { codeOf, errorShapeOk, procedureAt, procedurePaths, startWatchedApi, writeCount } from './support';

/**
 * The authorization matrix: every procedure x every kind of caller x the resources it can be
 * pointed at, on /v1 and on /trpc, each cell asserting the contract's status: no token 401 on
 * a protected operation, a caller without the right 403, a missing or malformed id 404, a
 * duplicate 409.
 * The list of operations comes from the router itself, so an operation added without a row
 * here fails the first test. Refused writes must leave the data exactly as it was.
 */

const { api, trpc } = await startWatchedApi({
  LOGIN_MAX_FAILURES_PER_EMAIL: 10_000,
  LOGIN_MAX_FAILURES_PER_ADDRESS: 10_000,
});
afterAll(() => api.close());
const world = await makeWorld(api.database.db);

describe('authorization matrix', () => {
  it('has a row for every procedure of the router, and none for procedures that do not exist', () => {
    const paths = [...procedurePaths].sort();
    expect(Object.keys(MATRIX).sort()).toEqual(paths);
    // Every procedure is served on /v1 too (the document and the dispatcher read the same meta).
    expect(paths.filter((path) => !operationAt(path)?.route?.path)).toEqual([]);
  });

  it.each(procedurePaths)('%s: every caller x resource on both transports', async (procedure) => {
    const entry = MATRIX[procedure];
    expect(entry, `no matrix row for ${procedure}: add one`).toBeDefined();
    const { route, isPublic, kind, traits } = procedureAt(procedure);
    // Files are served by /v1 only (/trpc answers 404 to everyone: the bulk tests).
    const transports = traits.download || traits.upload ? (['v1'] as const) : (['v1', 'trpc'] as const);
    const db = api.database.db;
    const mismatches: string[] = [];
    for (const [targetName, target] of Object.entries(entry!.targets)) {
      for (const actor of ACTORS) {
        const expected = outcomeFor(target.expect, actor, isPublic);
        for (const transport of transports) {
          const w = entry!.freshWorld ? await makeWorld(db) : world;
          const input = await target.input(db, w, actor);
          const token = actor === 'anonymous' ? undefined : w.actors[actor].token;
          const isMutation = kind === 'mutation';
          const before = isMutation ? await writeCount(db) : 0;
          const res = await sendTo({ api, trpc }, transport, procedure, input, token);
          const label = `${transport} ${procedure} [${targetName}] as ${actor}`;
          const want = expected === 'ok' ? (transport === 'v1' ? (route.status ?? 200) : 200) : expected;
          if (res.status !== want) {
            mismatches.push(`${label}: expected ${want}, got ${res.status} ${res.text.slice(0, 160)}`);
            continue;
          }
          if (expected !== 'ok') {
            expect(codeOf(res), label).toBe(CODES[expected]);
            expect(errorShapeOk(transport, res), label).toBe(true);
          }
          if (isMutation) {
            const after = await writeCount(db);
            // A refused write writes nothing; an accepted one does write (the counter works).
            if (expected === 'ok') expect(after, `${label} wrote nothing`).toBeGreaterThan(before);
            else expect(after, `${label} wrote rows`).toBe(before);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
