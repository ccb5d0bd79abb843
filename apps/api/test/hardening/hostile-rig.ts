import { createActor, type SignedActor } from '@music/api-router/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Response, TestApi } from '../support/harness';
import {
  errorShapeOk,
  insertArtistRow,
  insertPlaylistRow,
  insertSongRow,
  startWatchedApi,
  type Transport,
  type TrpcClient,
  tokens,
  writeCount,
} from './support';

/**
 * The hand-picked hostile request suites' server: an API with a user, an admin, an artist, one
 * of its songs and the user's playlist holding it, and writes counted so a refusal can be shown
 * to have written nothing.
 */

export const json = { 'content-type': 'application/json' };

export interface HostileWorld {
  api: TestApi;
  trpc: TrpcClient;
  user: SignedActor;
  admin: SignedActor;
  artistId: string;
  songId: string;
  playlistId: string;
}

/** Starts the server before the file's tests (closing it after); `refused` checks one answer. */
export function useHostileApi() {
  const h = {} as HostileWorld;
  beforeAll(async () => {
    ({ api: h.api, trpc: h.trpc } = await startWatchedApi());
    const db = h.api.database.db;
    [h.user, h.admin] = await Promise.all([
      createActor(db, 'user', tokens),
      createActor(db, 'admin', tokens),
    ]);
    h.artistId = await insertArtistRow(db);
    h.songId = await insertSongRow(db, [h.artistId]);
    h.playlistId = await insertPlaylistRow(db, h.user.user.id, { songIds: [h.songId] });
  });
  afterAll(() => h.api?.close());

  /** A 4xx of exactly `status` in the transport's error shape, that wrote nothing. */
  async function refused(
    res: Response | Promise<Response>,
    status: number,
    label: string,
    transport: Transport = 'v1',
  ) {
    const before = await writeCount(h.api.database.db);
    const answer = await res;
    expect(answer.status, `${label}: ${answer.text.slice(0, 200)}`).toBe(status);
    expect(errorShapeOk(transport, answer), `${label}: error shape ${answer.text.slice(0, 200)}`).toBe(true);
    expect(answer.text).not.toMatch(/at [\w.<>]+ \(|node_modules|SQLSTATE|syntax error|violates/);
    expect(await writeCount(h.api.database.db), `${label} wrote rows`).toBe(before);
    return answer;
  }

  return { h, refused };
}
