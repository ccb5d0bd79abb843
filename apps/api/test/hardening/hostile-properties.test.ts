import { createActor } from '@music/api-router/testing';
import { type Db, setPlaylistSongs, setSongArtists, uuidv7 } from '@music/db';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Response } from '../support/harness';
import { encodeSegment, mutated, pathId, queryString, wire } from './hostile-arbitraries';
import { EXAMPLES, type Fixtures, type Input, type Who } from './hostile-examples';
import {
  errorShapeOk,
  insertApiKeyRow,
  insertWebhookRow,
  procedureAt,
  procedurePaths,
  startWatchedApi,
  type Transport,
  tokens,
  writeCount,
} from './support';

/**
 * Property-based hostile input (fast-check) against every operation, on both transports:
 * bodies made from a valid example with fields dropped, replaced by hostile values (NUL,
 * lone surrogates, SQL and LIKE metacharacters, huge, negative and fractional numbers, wrong
 * types) or joined by unknown keys, or no object at all, truncated, or sent with the wrong
 * content type; query strings and path ids likewise. For every request:
 *   - never a 5xx, always the transport's error shape on a 4xx, no internals in the text;
 *   - a refused request (4xx) wrote no row;
 *   - whatever a non-admin sends, nobody else's data changes (other users, the catalogue).
 * Runs are bounded (HARDENING_RUNS, default 12 per operation and transport) and the seed is
 * fixed for repeatable CI (HARDENING_SEED=<n> explores others; a failure prints its seed).
 */

const RUNS = Number(process.env.HARDENING_RUNS ?? 12);
const SEED = process.env.HARDENING_SEED ? Number(process.env.HARDENING_SEED) : 20_261_123;

const { api, trpc } = await startWatchedApi({
  LOGIN_MAX_FAILURES_PER_EMAIL: 100_000,
  LOGIN_MAX_FAILURES_PER_ADDRESS: 100_000,
});
afterAll(() => api.close());
const [user, admin, victim] = await Promise.all([
  createActor(api.database.db, 'user', tokens),
  createActor(api.database.db, 'admin', tokens),
  createActor(api.database.db, 'artist', tokens),
]);
const fixtures: Fixtures = {
  user,
  admin,
  victim,
  artistIds: [uuidv7(), uuidv7()],
  songIds: [uuidv7(), uuidv7(), uuidv7()],
  playlistIds: [uuidv7(), uuidv7(), uuidv7()],
  keyIds: [
    (await insertApiKeyRow(api.database.db, victim.user.id, ['catalogue:read'])).id,
    (await insertApiKeyRow(api.database.db, user.user.id, ['catalogue:read'])).id,
  ],
  webhookIds: [],
  deliveryIds: [],
};
for (const owner of [victim, user]) {
  const hook = await insertWebhookRow(api.database.db, owner.user.id);
  fixtures.webhookIds.push(hook.id);
  fixtures.deliveryIds.push(hook.deliveryId);
}

/** Everything a non-admin must never be able to change: other users, the catalogue. */
async function othersDigest(db: Db, f: Fixtures): Promise<string> {
  const { rows } = await sql<{ digest: string }>`select concat_ws('/',
      (select md5(string_agg(t::text, '|' order by t.id)) from users t where t.id in (${f.victim.user.id}, ${f.admin.user.id})),
      (select md5(string_agg(t::text, '|' order by t.id)) from playlists t where t.user_id <> ${f.user.user.id}),
      (select md5(string_agg(t::text, '|' order by t.playlist_id, t.song_id)) from playlist_songs t
        where t.playlist_id in (select id from playlists where user_id <> ${f.user.user.id})),
      (select md5(string_agg(t::text, '|' order by t.id)) from artists t),
      (select md5(string_agg(t::text, '|' order by t.id)) from songs t),
      (select md5(string_agg(t::text, '|' order by t.song_id, t.artist_id)) from song_artists t),
      -- What a webhook's owner sets (its failures move with deliveries, in the background).
      (select md5(string_agg(concat_ws(',', t.id, t.url, t.events::text, t.description), '|' order by t.id))
        from webhooks t where t.user_id <> ${f.user.user.id})
    ) as digest`.execute(db);
  return rows[0]!.digest;
}

/**
 * Puts back the catalogue fixtures an admin's run deleted or changed (same ids), so every
 * operation's runs start from the same world.
 */
async function restoreFixtures(db: Db, f: Fixtures): Promise<void> {
  const [a0, a1] = f.artistIds as [string, string];
  const [s0, s1, s2] = f.songIds as [string, string, string];
  const [p0, p1, p2] = f.playlistIds as [string, string, string];
  await db.deleteFrom('artists').where('id', 'in', f.artistIds).execute();
  await db.deleteFrom('songs').where('id', 'in', f.songIds).execute();
  await db.deleteFrom('playlists').where('id', 'in', f.playlistIds).execute();
  await db
    .insertInto('artists')
    .values([
      { id: a0, name: 'Fixture artist zero', user_id: f.victim.user.id },
      { id: a1, name: 'Fixture artist one', user_id: null },
    ])
    .execute();
  await db
    .insertInto('songs')
    .values([s0, s1, s2].map((id, i) => ({ id, title: `Fixture song ${i}`, duration: 100 + i })))
    .execute();
  await setSongArtists(db, s0, [a0]);
  await setSongArtists(db, s1, [a1, a0]);
  await db
    .insertInto('playlists')
    .values([
      { id: p0, user_id: f.user.user.id, name: 'Fixture mine', is_public: false },
      { id: p1, user_id: f.victim.user.id, name: 'Fixture theirs', is_public: false },
      { id: p2, user_id: f.victim.user.id, name: 'Fixture theirs, public', is_public: true },
    ])
    .execute();
  await setPlaylistSongs(db, p0, [s0]);
  await setPlaylistSongs(db, p1, [s0, s1]);
  await setPlaylistSongs(db, p2, [s1]);
}

const SELF = '@self';

function poolFor(param: string, f: Fixtures, throwaway: boolean): string[] {
  if (param === 'userId') return throwaway ? [SELF] : [SELF, f.victim.user.id];
  if (param === 'artistId') return f.artistIds;
  if (param === 'songId') return f.songIds;
  if (param === 'keyId') return f.keyIds;
  if (param === 'webhookId') return f.webhookIds;
  if (param === 'deliveryId') return f.deliveryIds;
  return f.playlistIds;
}

interface Case {
  params: Record<string, string>;
  input: unknown;
  wire: { truncateAt: number | null; contentType: string | null };
  who: Who;
}

async function send(
  procedure: string,
  transport: Transport,
  c: Case,
  token: string | undefined,
): Promise<Response> {
  const { route, kind } = procedureAt(procedure);
  const fields =
    typeof c.input === 'object' && c.input !== null && !Array.isArray(c.input) ? (c.input as Input) : {};
  if (transport === 'trpc') {
    const input =
      typeof c.input === 'object' && c.input !== null && !Array.isArray(c.input)
        ? { ...fields, ...c.params }
        : c.input;
    if (kind === 'query') {
      return trpc.request('GET', `/${procedure}?input=${encodeSegment(JSON.stringify(input) ?? '')}`, {
        token,
      });
    }
    return trpc.request('POST', `/${procedure}`, { token, ...rawBody(input, c.wire) });
  }
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(c.params[name] ?? ''));
  if (route.method === 'GET' || route.method === 'DELETE') {
    const query = queryString(fields);
    return api.request(route.method, query ? `${path}?${query}` : path, { token });
  }
  return api.request(route.method, path, { token, ...rawBody(c.input, c.wire) });
}

function rawBody(input: unknown, w: Case['wire']) {
  let text = JSON.stringify(input) ?? '';
  if (w.truncateAt !== null) text = text.slice(0, w.truncateAt % (text.length + 1));
  return { rawBody: text, headers: { 'content-type': w.contentType ?? 'application/json' } };
}

describe('hostile input, property-based, every operation', () => {
  it('has an example input for every procedure', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual([...procedurePaths].sort());
  });

  describe.each(['v1', 'trpc'] as const)('on %s', (transport) => {
    it.each(procedurePaths)('%s never answers 5xx and refused requests change nothing', async (procedure) => {
      const example = EXAMPLES[procedure];
      expect(example, `no example for ${procedure}`).toBeDefined();
      const { route } = procedureAt(procedure);
      const params = route.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? [];
      // Logging out and deleting oneself end the caller: those runs use a throwaway caller.
      const throwaway = procedure === 'auth.logout' || procedure === 'users.delete';
      const db = api.database.db;
      await restoreFixtures(db, fixtures);

      const arbitrary = fc.record({
        params: fc.record(
          Object.fromEntries(params.map((p) => [p, pathId(poolFor(p, fixtures, throwaway))])),
        ),
        input: mutated(example!(fixtures)),
        wire,
        who: fc.constantFrom<Who>('anonymous', 'user', 'admin'),
      });
      await fc.assert(
        fc.asyncProperty(arbitrary, async (c) => {
          const caller =
            c.who === 'anonymous'
              ? undefined
              : throwaway
                ? await createActor(db, c.who, tokens)
                : fixtures[c.who];
          // `@self` is the caller's own id (the victim's for anonymous callers), in the case drawn.
          const self = caller?.user.id ?? fixtures.victim.user.id;
          for (const [key, value] of Object.entries(c.params)) {
            if (value === SELF) c.params[key] = self;
            else if (value === SELF.toUpperCase()) c.params[key] = self.toUpperCase();
          }
          const [writesBefore, othersBefore] = await Promise.all([
            writeCount(db),
            othersDigest(db, fixtures),
          ]);
          const res = await send(procedure, transport, c, caller?.token);
          const label = `${transport} ${procedure} as ${c.who}: ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, label).toBeGreaterThanOrEqual(200);
          expect(res.status, label).toBeLessThan(500);
          expect(res.text, label).not.toMatch(
            /at [\w.<>]+ \(|node_modules|SQLSTATE|syntax error|violates|invalid input syntax/,
          );
          if (res.status >= 400) {
            expect(errorShapeOk(transport, res), label).toBe(true);
            if (transport === 'v1' && res.status === 422) {
              expect((res.body as { errors: unknown[] }).errors.length, label).toBeGreaterThan(0);
            }
            expect(await writeCount(db), `${label} (refused, but wrote rows)`).toBe(writesBefore);
          }
          if (c.who !== 'admin')
            expect(await othersDigest(db, fixtures), `${label} changed others' data`).toBe(othersBefore);
        }),
        {
          numRuns: RUNS,
          seed: SEED + procedure.length + (transport === 'trpc' ? 1 : 0),
          endOnFailure: false,
        },
      );
    });
  });
});
