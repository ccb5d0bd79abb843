import { SCOPES, type Scope } from '@music/api-router';
import { afterAll, describe, expect, it } from 'vitest';
import { MATRIX, sendTo } from './authz-rows';
import { type ActorName, CODES, makeWorld, type Outcome, outcomeFor, type World } from './authz-rules';
import { codeOf, insertApiKeyRow, procedureAt, procedurePaths, startWatchedApi, writeCount } from './support';

/**
 * The authorization matrix of API keys, generated from the session matrix's rows: every
 * procedure x every role x every scope, on /v1 and /trpc. A key holding the scope an operation
 * needs (its `keyAccess` trait, which the document shows) gets exactly what its owner's session
 * gets (but for `keyExpect`: credentials); any other key gets 403 with RFC 6750's
 * `insufficient_scope` challenge and writes nothing, whatever the input. A key never reaches
 * the operations only a session may call.
 */
const { api, trpc } = await startWatchedApi({
  LOGIN_MAX_FAILURES_PER_EMAIL: 10_000,
  LOGIN_MAX_FAILURES_PER_ADDRESS: 10_000,
});
afterAll(() => api.close());
const db = api.database.db;

/** The owners: one account per role (the session matrix's `user`, `artist` and `admin`). */
const OWNERS = ['user', 'artist', 'admin'] as const satisfies readonly ActorName[];
type Keys = Record<(typeof OWNERS)[number], Record<Scope, string>>;

async function keysOf(world: World): Promise<Keys> {
  const keys = {} as Keys;
  for (const owner of OWNERS) {
    keys[owner] = {} as Record<Scope, string>;
    for (const scope of SCOPES) {
      keys[owner][scope] = (await insertApiKeyRow(db, world.actors[owner].user.id, [scope])).token;
    }
  }
  return keys;
}

const TRANSPORTS = ['v1', 'trpc'] as const;
const grants = (access: string, scope: Scope) => access === 'any' || access === scope;

const world = await makeWorld(db);
const keys = await keysOf(world);

describe('authorization matrix of API keys', () => {
  it.each(procedurePaths)('%s: every role x every scope on both transports', async (procedure) => {
    const entry = MATRIX[procedure];
    expect(entry, `no matrix row for ${procedure}`).toBeDefined();
    const { route, isPublic, traits } = procedureAt(procedure);
    const mismatches: string[] = [];
    const [firstName, firstTarget] = Object.entries(entry!.targets)[0]!;
    // Files are served by /v1 only (/trpc answers 404 to everyone: the bulk tests).
    const transports = traits.download || traits.upload ? (['v1'] as const) : TRANSPORTS;
    const wantOf = (transport: 'v1' | 'trpc', expected: Outcome) =>
      expected === 'ok' ? (transport === 'v1' ? (route.status ?? 200) : 200) : expected;

    // A key without the scope: refused before its input or its owner's role is looked at, so one
    // target shows it; the requests change nothing, so they go out together, and the count of
    // writes is compared once around them all.
    const refusedScopes = SCOPES.filter((scope) => !grants(traits.keyAccess, scope));
    const cells = OWNERS.flatMap((owner) =>
      refusedScopes.flatMap((scope) => transports.map((transport) => ({ owner, scope, transport }))),
    );
    // Their inputs are made first: the fixtures they need are writes of the test's own.
    const inputs = await Promise.all(cells.map(({ owner }) => firstTarget.input(db, world, owner)));
    const before = await writeCount(db);
    const refusals = cells.map(async ({ owner, scope, transport }, index) => {
      const res = await sendTo({ api, trpc }, transport, procedure, inputs[index]!, keys[owner][scope]);
      const label = `${transport} ${procedure} [${firstName}] as ${owner}'s ${scope} key`;
      if (res.status !== 403 || codeOf(res) !== 'FORBIDDEN') {
        mismatches.push(`${label}: expected 403, got ${res.status} ${res.text.slice(0, 160)}`);
      } else if (!/error="insufficient_scope"/.test(res.headers.get('www-authenticate') ?? '')) {
        mismatches.push(`${label}: no insufficient_scope challenge`);
      }
    });
    await Promise.all(refusals);
    expect(await writeCount(db), `${procedure}: refused keys wrote rows`).toBe(before);

    // A key with the scope: what its owner's session gets, cell by cell (writes may happen).
    for (const [targetName, target] of Object.entries(entry!.targets)) {
      for (const owner of OWNERS) {
        for (const scope of SCOPES.filter((s) => grants(traits.keyAccess, s))) {
          const expected = outcomeFor(target.keyExpect ?? target.expect, owner, isPublic);
          for (const transport of transports) {
            const w = entry!.freshWorld ? await makeWorld(db) : world;
            const token =
              w === world
                ? keys[owner][scope]
                : (await insertApiKeyRow(db, w.actors[owner].user.id, [scope])).token;
            const input = await target.input(db, w, owner);
            const res = await sendTo({ api, trpc }, transport, procedure, input, token);
            const label = `${transport} ${procedure} [${targetName}] as ${owner}'s ${scope} key`;
            if (res.status !== wantOf(transport, expected)) {
              mismatches.push(
                `${label}: expected ${wantOf(transport, expected)}, got ${res.status} ${res.text.slice(0, 160)}`,
              );
            } else if (expected !== 'ok') expect(codeOf(res), label).toBe(CODES[expected]);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
