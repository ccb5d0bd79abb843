import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { error, makeArtist, makeSong, type Song } from '../support/catalogue';
import { type SignedIn, startTestApi } from '../support/harness';
import { type ImportState, importFile, waitForImport } from '../support/imports';

/**
 * POST /v1/imports: CSV and NDJSON files of songs, applied by a worker, followed by GET
 * /imports/{id}: what each record does (created, updated by isrc or externalId, unchanged),
 * errors by line, artists by name, dry runs, who may import what.
 */

const api = await startTestApi();
afterAll(() => api.close());
const admin = await api.signUp('admin');
const tag = randomBytes(3).toString('hex');
const isrc = (n: number) => `QZ${tag.slice(0, 3).toUpperCase()}26${String(n).padStart(5, '0')}`;

const run = async (who: SignedIn, body: string, type = 'text/csv', query = '') =>
  waitForImport(api, who, await importFile(api, who, body, type, query));

const songWith = async (query: string) => {
  const res = await api.request<{ data: Song[] }>('GET', `/songs?${query}`, { token: admin.token });
  return res.body.data;
};

describe('POST /v1/imports', () => {
  it('CSV: creates songs and the artists they name, reports a bad record by line, then re-runs unchanged', async () => {
    const known = await makeArtist(api, admin, { name: `Known ${tag}` });
    const csv = [
      'title,duration,isrc,externalId,artists,releaseYear',
      `One ${tag},200,${isrc(1)},,Known ${tag};New ${tag},1999`,
      `Two ${tag},-5,,,,`,
      `Three ${tag},180,,ext-${tag},,`,
      '',
    ].join('\r\n');
    const first = await run(admin, csv);
    expect(first).toMatchObject({
      status: 'succeeded',
      dryRun: false,
      format: 'csv',
      counts: { read: 3, created: 2, updated: 0, unchanged: 0, failed: 1 },
      failure: null,
    });
    expect(first.errors).toEqual([{ line: 3, field: 'duration', message: expect.any(String) }]);
    const [one] = await songWith(`isrc=${isrc(1)}`);
    expect(one).toMatchObject({ title: `One ${tag}`, duration: 200, releaseYear: 1999, album: null });
    const made = await api.request('GET', `/artists?search=${encodeURIComponent(`New ${tag}`)}`, {
      token: admin.token,
    });
    expect(made.body.data).toHaveLength(1);
    expect(one!.artistIds).toEqual([known.id, made.body.data[0].id]);
    expect((await songWith(`externalId=ext-${tag}`))[0]).toMatchObject({
      title: `Three ${tag}`,
      artistIds: [],
    });

    // The same file again: nothing changes (matched by isrc and externalId), no artist twice.
    const again = await run(admin, csv);
    expect(again.counts).toEqual({ read: 3, created: 0, updated: 0, unchanged: 2, failed: 1 });
    // A corrected delivery updates what changed, and only that.
    const fixed = await run(admin, csv.replace(`One ${tag},200`, `One ${tag} (remaster),201`));
    expect(fixed.counts).toEqual({ read: 3, created: 0, updated: 1, unchanged: 1, failed: 1 });
    const [updated] = await songWith(`isrc=${isrc(1)}`);
    expect(updated).toMatchObject({ id: one!.id, title: `One ${tag} (remaster)`, duration: 201 });
    // Audited and in the feed as the API's own writes, naming who imported.
    const audit = await api.request('GET', `/audit-events?targetId=${one!.id}`, { token: admin.token });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual([
      'song.updated',
      'song.created',
    ]);
    expect(audit.body.data[0].actor.userId).toBe(admin.id);
  });

  it('NDJSON: artists by name or by id, an empty field is null, a bad line is reported by its number', async () => {
    const artist = await makeArtist(api, admin, { name: `Nd ${tag}` });
    const lines = [
      JSON.stringify({
        title: `Nd one ${tag}`,
        duration: 100,
        externalId: `nd-${tag}`,
        artistIds: [artist.id],
      }),
      '',
      '{not json',
      JSON.stringify({ title: `Nd two ${tag}`, duration: 100, artists: [`Nd ${tag}`], genre: '' }),
      JSON.stringify({ title: `Nd three ${tag}`, duration: 100, surprise: true }),
    ];
    const state = await run(admin, `${lines.join('\n')}\n`, 'application/x-ndjson');
    expect(state.counts).toEqual({ read: 4, created: 2, updated: 0, unchanged: 0, failed: 2 });
    expect(state.errors.map((e) => [e.line, e.field])).toEqual([
      [3, ''],
      [5, 'surprise'],
    ]);
    const [two] = (await songWith(`search=${encodeURIComponent(`Nd two ${tag}`)}`)).filter(
      (s) => s.title === `Nd two ${tag}`,
    );
    expect(two).toMatchObject({ genre: null, artistIds: [artist.id] });
  });

  it('a dry run counts what the file would do and writes nothing', async () => {
    const before = await api.request('GET', '/songs?limit=1', { token: admin.token });
    const csv = `title,duration,artists\r\nDry ${tag},90,Dry artist ${tag}\r\nDry bad ${tag},x,\r\n`;
    const state = await run(admin, csv, 'text/csv', '?dryRun=true');
    expect(state).toMatchObject({ dryRun: true, status: 'succeeded' });
    expect(state.counts).toEqual({ read: 2, created: 1, updated: 0, unchanged: 0, failed: 1 });
    const after = await api.request('GET', '/songs?limit=1', { token: admin.token });
    expect(after.body.pagination.total).toBe(before.body.pagination.total);
    const artists = await api.request('GET', `/artists?search=${encodeURIComponent(`Dry artist ${tag}`)}`, {
      token: admin.token,
    });
    expect(artists.body.data).toEqual([]);
  });

  it('a CSV with an unknown column fails whole, saying which', async () => {
    const state = await run(admin, 'title,duration,colour\r\nX,1,red\r\n');
    expect(state).toMatchObject({ status: 'failed', counts: { read: 0 } });
    expect(state.failure).toMatch(/colour/);
  });

  it('refuses a body that is not CSV or NDJSON, and an empty one', async () => {
    const post = (body: string, type: string) =>
      fetch(`${api.url}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': type },
        body,
      });
    const json = await post('{"title":"x"}', 'application/json');
    expect(json.status).toBe(400);
    expect(((await json.json()) as { message: string }).message).toMatch(/CSV|NDJSON/);
    expect((await post('', 'text/csv')).status).toBe(400);
    expect(
      (
        await api.request('POST', '/imports?dryRun=maybe', {
          token: admin.token,
          rawBody: 'a',
          headers: { 'content-type': 'text/csv' },
        })
      ).status,
    ).toBe(400);
  });

  it('refuses over 100 MB with 413 and keeps nothing, declared or sent without a Content-Length', async () => {
    const sender = await api.signUp('admin');
    const kept = async () =>
      (
        await sql<{ imports: number; pieces: number }>`select
          (select count(*)::int from imports where user_id = ${sender.id}) as imports,
          (select count(*)::int from import_chunks) as pieces`.execute(api.database.db)
      ).rows[0]!;
    const before = await kept();
    expect(before.imports).toBe(0);

    // Declared: refused from the header, before a byte of the body is read.
    const declared = await new Promise<number>((resolve, reject) => {
      const req = request(`${api.url}/imports`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sender.token}`,
          'content-type': 'text/csv',
          'content-length': String(100 * 1024 * 1024 + 1),
        },
      });
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write('title,duration\r\n');
    });
    expect(declared).toBe(413);

    // A stream sent without a length (fetch sends it chunked): counted as it arrives, refused once
    // past 100 MB, and the pieces already stored are removed with the import.
    const piece = Buffer.from('Chunked,1\r\n'.repeat(96 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 101 * 1024 * 1024) return controller.close();
        sent += piece.length;
        controller.enqueue(new Uint8Array(piece));
      },
    });
    const chunked = await fetch(`${api.url}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sender.token}`, 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual(error('PAYLOAD_TOO_LARGE'));
    expect(await kept()).toEqual(before);
  });

  it('artists import their own artists’ songs only; listeners none; an import is its sender’s and admins’', async () => {
    const listener = await api.signUp();
    await importFile(api, listener, 'title,duration\r\nNo,1\r\n', 'text/csv', '', 403);
    const account = await api.signUp('artist');
    const own = await makeArtist(api, admin, { name: `Own ${tag}`, userId: account.id });
    const someone = await makeArtist(api, admin, { name: `Someone ${tag}` });
    const theirs = await makeSong(api, admin, { isrc: isrc(9), artistIds: [someone.id] });
    const csv = [
      'title,duration,artists,isrc',
      `Mine ${tag},100,Own ${tag},`,
      `Not mine ${tag},100,Someone ${tag},`,
      `Taken ${tag},100,Own ${tag},${theirs.isrc}`,
      `Defaulted ${tag},100,,`,
      '',
    ].join('\r\n');
    const id = await importFile(api, account, csv);
    const state: ImportState = await waitForImport(api, account, id);
    expect(state.counts).toEqual({ read: 4, created: 2, updated: 0, unchanged: 0, failed: 2 });
    expect(state.errors.map((e) => [e.line, e.field])).toEqual([
      [3, 'artists'],
      [4, 'isrc'],
    ]);
    const [defaulted] = (await songWith(`search=${encodeURIComponent(`Defaulted ${tag}`)}`)).filter(
      (s) => s.title === `Defaulted ${tag}`,
    );
    expect(defaulted!.artistIds).toEqual([own.id]);
    expect((await api.request('GET', `/imports/${id}`, { token: listener.token })).status).toBe(404);
    expect((await api.request('GET', `/imports/${id}`, { token: admin.token })).status).toBe(200);
  });
});
