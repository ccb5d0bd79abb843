import { describe, expect, it } from 'vitest';
import type { SignedIn } from '../support/harness';
import { codeOf, type Transport } from './support';
import { TRANSPORTS, useTokenRig } from './token-rig';

/**
 * An artist account as an attacker (version 1.2): taking another artist's song by linking it
 * to its own artist, and keeping its powers after a demotion. On both transports and on a
 * second instance of the service; every refusal leaves the song as it was.
 */

const { rig, login } = useTokenRig();

interface Call {
  transport: Transport;
  procedure: string;
  method: string;
  path: string;
  input: Record<string, unknown>;
}

/** Sends one call on /v1 (path and body) or /trpc (the procedure and its input), main or sibling. */
function send(call: Call, token: string, which: 'main' | 'sibling' = 'main') {
  if (call.transport === 'trpc') {
    return (which === 'main' ? rig.trpc : rig.siblingTrpc).call(call.procedure, call.input, token);
  }
  const client = which === 'main' ? rig.api : rig.sibling;
  // On /v1 the ids travel in the path only.
  const { songId: _song, artistId: _artist, ...fields } = call.input;
  const body = call.method === 'PATCH' || call.method === 'PUT' ? fields : undefined;
  return client.request(call.method, call.path, { token, body });
}

/** An artist account (signed up, promoted by an admin) and the artist linked to it. */
async function artistAccount(admin: SignedIn): Promise<{ account: SignedIn; artistId: string }> {
  const account = await rig.api.signUp();
  const promoted = await rig.api.request('PUT', `/users/${account.id}/role`, {
    token: admin.token,
    body: { role: 'artist' },
  });
  expect(promoted.status).toBe(200);
  const artist = await rig.api.request('POST', '/artists', {
    token: admin.token,
    body: { name: `Artist of ${account.email}`, userId: account.id },
  });
  expect(artist.status).toBe(201);
  return { account, artistId: artist.body.id };
}

async function songOf(admin: SignedIn, artistIds: string[]): Promise<string> {
  const song = await rig.api.request('POST', '/songs', {
    token: admin.token,
    body: { title: 'Their hit', duration: 200, artistIds },
  });
  expect(song.status).toBe(201);
  return song.body.id;
}

const read = async (admin: SignedIn, songId: string) =>
  (await rig.api.request('GET', `/songs/${songId}`, { token: admin.token })).body;

describe('an artist account taking another artist’s song', () => {
  it.each(TRANSPORTS)(
    'is refused on %s at every step, and the song stays its artist’s',
    async (transport) => {
      const admin = await rig.api.signUp('admin');
      const thief = await artistAccount(admin);
      const victim = await artistAccount(admin);
      const songId = await songOf(admin, [victim.artistId]);
      const before = await read(admin, songId);
      const steps: Call[] = [
        {
          transport,
          procedure: 'artists.linkSong',
          method: 'POST',
          path: `/artists/${thief.artistId}/songs/${songId}`,
          input: { artistId: thief.artistId, songId },
        },
        {
          transport,
          procedure: 'songs.update',
          method: 'PATCH',
          path: `/songs/${songId}`,
          input: { songId, artistIds: [thief.artistId] },
        },
        {
          transport,
          procedure: 'songs.update',
          method: 'PATCH',
          path: `/songs/${songId}`,
          input: { songId, artistIds: [victim.artistId, thief.artistId] },
        },
        {
          transport,
          procedure: 'songs.delete',
          method: 'DELETE',
          path: `/songs/${songId}`,
          input: { songId },
        },
      ];
      for (const step of steps) {
        for (const which of ['main', 'sibling'] as const) {
          const res = await send(step, thief.account.token, which);
          expect(
            [res.status, codeOf(res)],
            `${step.procedure} ${JSON.stringify(step.input)} ${which}`,
          ).toEqual([403, 'FORBIDDEN']);
        }
      }
      expect(await read(admin, songId)).toEqual(before);
      // The real artist still manages it.
      const own = await rig.api.request('PATCH', `/songs/${songId}`, {
        token: victim.account.token,
        body: { title: 'Still mine' },
      });
      expect(own.status).toBe(200);
    },
  );
});

describe('a demoted artist account', () => {
  it.each(TRANSPORTS)(
    'loses its artist powers at once on %s, with its old token and a new one, on every instance',
    async (transport) => {
      const admin = await rig.api.signUp('admin');
      const { account, artistId } = await artistAccount(admin);
      const second = await artistAccount(admin);
      const songId = await songOf(admin, [artistId]);
      // Still an artist: it may (this proves the calls below are refused for the demotion alone).
      const patched = await rig.api.request('PATCH', `/songs/${songId}`, {
        token: account.token,
        body: { genre: 'Before' },
      });
      expect(patched.status).toBe(200);

      const demoted = await rig.api.request('PUT', `/users/${account.id}/role`, {
        token: admin.token,
        body: { role: 'user' },
      });
      expect(demoted.status).toBe(200);
      const fresh = await login('v1', { email: account.email, password: account.password });
      expect(fresh.status).toBe(200);
      const before = await read(admin, songId);
      const calls: Call[] = [
        {
          transport,
          procedure: 'artists.update',
          method: 'PATCH',
          path: `/artists/${artistId}`,
          input: { artistId, bio: 'still mine?' },
        },
        {
          transport,
          procedure: 'artists.replace',
          method: 'PUT',
          path: `/artists/${artistId}`,
          input: { artistId, name: 'Renamed' },
        },
        {
          transport,
          procedure: 'artists.unlinkSong',
          method: 'DELETE',
          path: `/artists/${artistId}/songs/${songId}`,
          input: { artistId, songId },
        },
        {
          transport,
          procedure: 'songs.update',
          method: 'PATCH',
          path: `/songs/${songId}`,
          input: { songId, title: 'Changed' },
        },
        {
          transport,
          procedure: 'songs.delete',
          method: 'DELETE',
          path: `/songs/${songId}`,
          input: { songId },
        },
      ];
      for (const token of [account.token, fresh.body.accessToken as string]) {
        for (const call of calls) {
          for (const which of ['main', 'sibling'] as const) {
            const res = await send(call, token, which);
            expect([res.status, codeOf(res)], `${call.procedure} ${which}`).toEqual([403, 'FORBIDDEN']);
          }
        }
      }
      expect(await read(admin, songId)).toEqual(before);
      // A song of another artist cannot be linked by it either (it manages nothing now).
      const link = await rig.api.request(
        'POST',
        `/artists/${artistId}/songs/${await songOf(admin, [second.artistId])}`,
        {
          token: account.token,
        },
      );
      expect(link.status).toBe(403);
    },
  );
});
