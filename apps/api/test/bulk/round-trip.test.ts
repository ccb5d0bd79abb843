import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { makeArtist, makeSong } from '../support/catalogue';
import { startTestApi, type TestApi } from '../support/harness';
import { importFile, waitForImport } from '../support/imports';

/**
 * What GET /songs/export writes, POST /imports reads back unchanged: a catalogue exported,
 * imported into an empty one and exported again is the same file (but for its order: songs are
 * written in id order, and the copy's ids are its own), in both formats; and importing an export
 * back into its own catalogue changes no song that has an isrc or an externalId.
 */

const source = await startTestApi();
const copies: TestApi[] = [];
afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.close()));
  await source.close();
});
const admin = await source.signUp('admin');

// Names and fields that test both formats' quoting and the artists cell's escaping.
const semi = await makeArtist(source, admin, { name: 'AC;DC' });
const slash = await makeArtist(source, admin, { name: 'Back\\slash' });
const quoted = await makeArtist(source, admin, { name: 'Le "Quoted", Ltd.' });
const accented = await makeArtist(source, admin, { name: 'Beyoncé' });
await makeSong(source, admin, {
  title: 'With, commas and "quotes"',
  album: 'Résumé',
  genre: 'Jazz',
  duration: 301,
  releaseYear: 1987,
  isrc: 'QZRTT2600001',
  artistIds: [semi.id, slash.id],
});
await makeSong(source, admin, {
  title: 'Keyed elsewhere',
  duration: 60,
  externalId: 'cat-0001',
  artistIds: [quoted.id],
});
await makeSong(source, admin, { title: 'Plain', duration: 1, artistIds: [accented.id, semi.id] });
await makeSong(source, admin, { title: 'No artists', duration: 86400, genre: 'Ambient' });

async function exported(api: TestApi, token: string, format: 'csv' | 'ndjson'): Promise<string> {
  const res = await fetch(`${api.url}/songs/export?format=${format}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return res.text();
}

/** A file's records in an order of their own (files list songs in id order). */
function records(text: string, format: 'csv' | 'ndjson'): string[] {
  const rows: unknown[] =
    format === 'csv'
      ? parse(text, { columns: true })
      : text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
  return rows.map((row) => JSON.stringify(row)).sort();
}

describe('export, import, export', () => {
  for (const format of ['csv', 'ndjson'] as const) {
    it(`${format}: an empty catalogue that imports the export exports the same records`, async () => {
      const file = await exported(source, admin.token, format);
      const copy = await startTestApi();
      copies.push(copy);
      const copyAdmin = await copy.signUp('admin');
      const type = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
      const state = await waitForImport(copy, copyAdmin, await importFile(copy, copyAdmin, file, type));
      expect(state.counts).toEqual({ read: 4, created: 4, updated: 0, unchanged: 0, failed: 0 });
      const again = await exported(copy, copyAdmin.token, format);
      expect(records(again, format)).toEqual(records(file, format));
      if (format === 'csv') expect(again.split('\r\n')[0]).toBe(file.split('\r\n')[0]);
    });
  }

  it('imported back into its own catalogue: the keyed songs are unchanged, the others made again', async () => {
    const file = await exported(source, admin.token, 'ndjson');
    const state = await waitForImport(
      source,
      admin,
      await importFile(source, admin, file, 'application/x-ndjson'),
    );
    // Two songs carry an isrc or an externalId; the two others have nothing to be matched by.
    expect(state.counts).toEqual({ read: 4, created: 2, updated: 0, unchanged: 2, failed: 0 });
  });
});
