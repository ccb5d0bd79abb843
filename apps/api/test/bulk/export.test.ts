import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { insertApiKeyRow } from '../hardening/support';
import { makeArtist, makeSong, type Song } from '../support/catalogue';
import { startTestApi } from '../support/harness';

/**
 * GET /v1/songs/export: the catalogue as a CSV or NDJSON file, streamed. Read here with the
 * parser the imports use (csv-parse), each song's row equal to the song as its GET shows it.
 */

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');
const user = await api.signUp();

const tag = randomBytes(3).toString('hex');
// Names and titles that need quoting or escaping in one format or the other.
const first = await makeArtist(api, admin, { name: `Semi; colon ${tag}` });
const second = await makeArtist(api, admin, { name: `Back\\slash, "quoted" ${tag}` });
const songs: Song[] = [
  await makeSong(api, admin, {
    title: `Commas, "quotes" ${tag}`,
    album: ' edge spaces ',
    genre: 'Jazz',
    releaseYear: 1999,
    isrc: `QZ${tag.slice(0, 3).toUpperCase()}2600001`.slice(0, 12),
    externalId: `ext-${tag}`,
    artistIds: [second.id, first.id],
  }),
  await makeSong(api, admin, { title: `Plain ${tag}`, duration: 61 }),
];

/** A song as the files carry it (what an import reads back). */
const record = (song: Song) => ({
  title: song.title,
  album: song.album,
  genre: song.genre,
  duration: song.duration,
  releaseYear: song.releaseYear,
  isrc: song.isrc,
  externalId: song.externalId,
  artists: song.artistIds.map((id) => (id === first.id ? first.name : second.name)),
});

const download = (query: string, headers: Record<string, string> = {}, token = user.token) =>
  fetch(`${api.url}/songs/export${query}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

describe('GET /v1/songs/export', () => {
  it('CSV: a header row, then every song as a row the CSV parser reads back as the song', async () => {
    const res = await download('?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="songs-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe('title,album,genre,duration,releaseYear,isrc,externalId,artists');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    const mine = rows.filter((row) => row.title?.endsWith(tag));
    expect(mine).toEqual(
      songs.map((song) => {
        const r = record(song);
        return {
          title: r.title,
          album: r.album ?? '',
          genre: r.genre ?? '',
          duration: String(r.duration),
          releaseYear: r.releaseYear === null ? '' : String(r.releaseYear),
          isrc: r.isrc ?? '',
          externalId: r.externalId ?? '',
          // `;` separates names; a `;` or `\` in a name is escaped with `\`.
          artists: r.artists.map((n) => n.replaceAll('\\', '\\\\').replaceAll(';', '\\;')).join(';'),
        };
      }),
    );
    // Every song of the catalogue, once, in id order.
    const all = await api.request('GET', '/songs?limit=100', { token: user.token });
    expect(rows).toHaveLength(all.body.pagination.total);
  });

  it('NDJSON: a song a line, its artists by name, equal to the song', async () => {
    const res = await download('?format=ndjson');
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await res.text()).split('\n');
    expect(lines.at(-1)).toBe('');
    const parsed = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(parsed.filter((r) => String(r.title).endsWith(tag))).toEqual(songs.map(record));
  });

  it('is gzip-compressed when the client accepts it; HEAD sends the head only', async () => {
    const plain = await (await download('?format=ndjson')).text();
    const res = await download('?format=ndjson', { 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch decompresses by itself: read the raw bytes through another request.
    expect(await res.text()).toBe(plain);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const url = new URL(`${api.url}/songs/export?format=ndjson`);
      import('node:http').then(({ get }) =>
        get(url, { headers: { authorization: `Bearer ${user.token}`, 'accept-encoding': 'gzip' } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve(Buffer.concat(chunks)));
        }).on('error', reject),
      );
    });
    expect(gunzipSync(raw).toString('utf8')).toBe(plain);
    const head = await fetch(`${api.url}/songs/export`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await head.text()).toBe('');
  });

  it('CSV by default; a format it does not write is a 400; no caller is a 401', async () => {
    expect((await download('')).headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bad = await api.request('GET', '/songs/export?format=xml', { token: user.token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_REQUEST');
    expect((await api.request('GET', '/songs/export')).status).toBe(401);
  });

  it('an API key needs catalogue:read; /trpc does not serve the file', async () => {
    const reader = await insertApiKeyRow(api.database.db, user.id, ['catalogue:read']);
    const other = await insertApiKeyRow(api.database.db, user.id, ['playlists:read']);
    expect((await download('', {}, reader.token)).status).toBe(200);
    const refused = await download('', {}, other.token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="catalogue:read"');
    const rpc = await fetch(
      `${api.url.replace(/\/v1$/, '')}/trpc/songs.export?input=${encodeURIComponent('{}')}`,
      {
        headers: { authorization: `Bearer ${user.token}` },
      },
    );
    expect(rpc.status).toBe(404);
    expect(await rpc.text()).toContain('/v1/songs/export');
  });
});
