import { etagOfJson } from '@music/api-router';
import { describe, expect, it } from 'vitest';
import { etagOf } from './etag';

describe('etagOf', () => {
  it('gives the tag the API sends for the same record', async () => {
    // Key order as the API answers a song; text outside ASCII, so the UTF-8 encoding counts too.
    const song = {
      id: '0198a7c2-1234-7abc-8def-0123456789ab',
      title: 'Für Elise — «live» 🎹',
      album: null,
      genre: 'Classical',
      duration: 175,
      releaseYear: 1810,
      artistIds: ['0198a7c2-1234-7abc-8def-0123456789ac'],
      createdAt: '2025-01-02T03:04:05.000Z',
      updatedAt: '2025-01-02T03:04:05.000Z',
    };
    const received = JSON.parse(JSON.stringify(song));
    expect(await etagOf(received)).toBe(etagOfJson(JSON.stringify(song)));
  });

  it('changes with any value, and with the key order', async () => {
    const a = await etagOf({ name: 'A', isPublic: false });
    expect(a).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(await etagOf({ name: 'B', isPublic: false })).not.toBe(a);
    expect(await etagOf({ isPublic: false, name: 'A' })).not.toBe(a);
  });
});
