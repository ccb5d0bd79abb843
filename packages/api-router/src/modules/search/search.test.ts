import { afterAll, describe, expect, it } from 'vitest';
import { createRouterHarness } from '../../../testing/index';

const h = await createRouterHarness();
afterAll(() => h.close());

describe('search.find', () => {
  it('ranks exact, prefix, word prefix, other, then typos, each kind', async () => {
    const admin = await h.makeActor('admin');
    const listener = await h.makeActor('user');
    const c = h.caller(admin);
    const sigur = await c.artists.create({ name: 'Sigur Rós' });
    const other = await c.artists.create({ name: 'Velvet Static' });
    const songs = {
      contains: await c.songs.create({ title: 'Untitled (Glosoli)', duration: 100, artistIds: [other.id] }),
      word: await c.songs.create({ title: 'Ny Glosoli', duration: 100, artistIds: [other.id] }),
      exact: await c.songs.create({ title: 'Glósóli', duration: 100, album: 'Takk…', artistIds: [sigur.id] }),
      prefix: await c.songs.create({
        title: 'Glosoli (Live)',
        duration: 100,
        album: 'Takk…',
        artistIds: [sigur.id],
      }),
      byAlbum: await c.songs.create({
        title: 'Hoppípolla',
        duration: 100,
        album: 'Glosoli Sessions',
        artistIds: [sigur.id],
      }),
      typo: await c.songs.create({ title: 'Glasoli', duration: 100 }),
    };
    const found = await h.caller(listener).search.find({ q: 'glosoli', limit: 20 });
    expect(found.songs?.map((s) => s.title)).toEqual([
      'Glósóli',
      'Glosoli (Live)',
      'Ny Glosoli',
      'Untitled (Glosoli)',
      'Hoppípolla',
      'Glasoli',
    ]);
    expect(found.songs?.[0]?.id).toBe(songs.exact.id);
    expect(found.albums).toEqual([{ name: 'Glosoli Sessions', artistIds: [sigur.id], songCount: 1 }]);
    const artists = await h.caller(listener).search.find({ q: 'sigur ro', types: 'artists' });
    expect(artists).toEqual({ artists: [expect.objectContaining({ id: sigur.id })] });
    expect(Object.keys(await h.caller(listener).search.find({ q: '%' }))).toEqual([
      'songs',
      'artists',
      'albums',
      'playlists',
    ]);
  });
});
