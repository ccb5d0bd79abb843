/**
 * What each header version 1.1 added costs per request, measured in this process on the real
 * functions (`pnpm --filter @music/api edge-costs`): the record's ETag, the pagination links,
 * the budget's count and headers, and compressing a page of songs. Prints microseconds per call;
 * docs/performance.md keeps the figures. Not a test: nothing here can fail on a slow machine.
 */
import { performance } from 'node:perf_hooks';
import { etagOfJson } from '@music/api-router';
import { createTestDatabase } from '@music/db/testing';
import { budgetHeaders } from '../src/http/budget-edge';
import { compress } from '../src/http/compression';
import { createBudgets } from '../src/runtime/budgets';
import { paginationLinks } from '../src/v1/links';

const uuid = (i: number) => `0198a7c2-1234-7abc-8def-${String(i).padStart(12, '0')}`;
const song = (i: number) => ({
  id: uuid(i),
  title: `Song number ${i}`,
  album: 'An album of songs',
  genre: 'Indie',
  duration: 241,
  releaseYear: 2008,
  artistIds: [uuid(i + 1_000_000)],
  createdAt: '2026-11-22T12:00:00Z',
  updatedAt: '2026-11-23T12:00:00Z',
});
const page = {
  data: Array.from({ length: 20 }, (_, i) => song(i)),
  pagination: { page: 3, limit: 20, total: 100_000 },
};
const pageJson = Buffer.from(JSON.stringify(page));

function measure(label: string, calls: number, run: (i: number) => unknown): void {
  for (let i = 0; i < Math.min(calls, 2_000); i++) run(i);
  const start = performance.now();
  for (let i = 0; i < calls; i++) run(i);
  const micros = ((performance.now() - start) * 1_000) / calls;
  console.log(`${label.padEnd(58)} ${micros.toFixed(2).padStart(8)} µs/call`);
}

const database = await createTestDatabase();
const budgets = createBudgets({
  db: database.db,
  log: { info() {}, warn() {}, error() {} },
  perUser: 1_000_000,
  perAnonymous: 1_000_000,
});
try {
  // The edge tags the body it is about to send: the JSON is there already.
  const songJson = JSON.stringify(song(1));
  const playlistJson = JSON.stringify({
    ...song(1),
    songIds: Array.from({ length: 100 }, (_, i) => uuid(i)),
  });
  measure('ETag of a song (etagOfJson of its answer)', 50_000, () => etagOfJson(songJson));
  measure('ETag of a playlist of 100 songs', 10_000, () => etagOfJson(playlistJson));
  const search = new URLSearchParams('genre=Indie&limit=20&page=3');
  measure('Link header of a page', 50_000, () =>
    paginationLinks('http://127.0.0.1:4000/v1/songs', search, page.pagination),
  );
  measure('budget: count one request and build its headers', 200_000, (i) => {
    const state = budgets.take({ userId: uuid(i % 1_000), address: '127.0.0.1' });
    if (state && !(state instanceof Promise)) budgetHeaders(state);
  });
  console.log(`a page of 20 songs is ${pageJson.length} bytes`);
  measure('gzip a page of 20 songs (only when Accept-Encoding asks)', 2_000, () =>
    compress(pageJson, 'gzip'),
  );
  measure('brotli a page of 20 songs (only when Accept-Encoding asks)', 2_000, () =>
    compress(pageJson, 'br'),
  );
  console.log(
    `compressed: gzip ${compress(pageJson, 'gzip').length} bytes, brotli ${compress(pageJson, 'br').length} bytes`,
  );
} finally {
  await budgets.stop();
  await database.close();
}
