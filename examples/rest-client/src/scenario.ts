// The example: one integrator's session against the /v1 REST API, every request and answer typed
// from the API's own OpenAPI document (src/schema.d.ts). Run it with `pnpm example` (which
// starts an API of its own) or, against a running API, `pnpm scenario` with API_URL,
// ADMIN_EMAIL and ADMIN_PASSWORD set.
import { randomBytes } from 'node:crypto';
import { logOut, refresh, signIn, signUp } from './accounts';
import { changeRole, exhaustBudget } from './budget';
import { createArtist, createSongs, retryWithIdempotencyKey } from './catalogue';
import { apiUrlFromEnv, createApiClient } from './client';
import { followNextLinks, listGenres, sortByDuration } from './lists';
import { buildPlaylist, reorderWithIfMatch, staleIfMatch } from './playlists';
import type { Run } from './run';
import { Scenario } from './steps';

const apiUrl = apiUrlFromEnv();
const { ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword } = process.env;
if (!adminEmail || !adminPassword) {
  console.error(`scenario: set ADMIN_EMAIL and ADMIN_PASSWORD to an admin account of the API at ${apiUrl}`);
  process.exit(2);
}

const tag = `rc${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const run: Run = { apiUrl, tag, scenario: new Scenario(), anonymous: createApiClient(apiUrl) };
console.log(`REST client example against ${apiUrl}/v1 (run ${tag})\n`);

// A listener signs up, signs in and refreshes their token.
const listenerAccount = await signUp(run, 'listener');
const signedIn = await signIn(run, 'listener', listenerAccount, 'user');
const listener = await refresh(run, signedIn);

// The admin fills the catalogue.
const admin = await signIn(run, 'admin', { email: adminEmail, password: adminPassword }, 'admin');
const artist = await createArtist(run, admin);
const songs = await createSongs(run, admin, artist);
await retryWithIdempotencyKey(run, admin, artist);

// The listener builds a playlist, reorders it safely, and a lost update is refused.
const playlist = await buildPlaylist(run, listener, songs);
const reordered = await reorderWithIfMatch(run, listener, playlist);
await staleIfMatch(run, listener, reordered);

// Lists: pages by the Link header, sorting, the genres in use.
await followNextLinks(run, listener);
await sortByDuration(run, listener);
await listGenres(run, listener);

// A second account: the admin changes its role, then it spends its request budget (its own, so
// the listener is not held up), and the listener signs out.
const spenderAccount = await signUp(run, 'spender');
await changeRole(run, admin, spenderAccount?.user);
await exhaustBudget(run, await signIn(run, 'spender', spenderAccount, 'artist'));
await logOut(run, listener);

process.exit(run.scenario.finish());
