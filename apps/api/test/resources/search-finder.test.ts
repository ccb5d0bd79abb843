import { describe, expect, it } from 'vitest';
import {
  type Artist,
  catalogueWorld,
  error,
  makeArtist,
  makePlaylist,
  makeSong,
  type Playlist,
  type Song,
  tag,
} from '../support/catalogue';
import type { SignedIn } from '../support/harness';

const w = catalogueWorld();

/** A fresh tag without the letters a to f: it can hold none of the words searched for here. */
const uid = () => tag().replace(/[a-f]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 6));

interface Album {
  name: string;
  artistIds: string[];
  songCount: number;
}
interface Found {
  songs?: Song[];
  artists?: Artist[];
  albums?: Album[];
  playlists?: Playlist[];
}

const find = (query: string, caller: SignedIn = w.user) =>
  w.api.request<Found>('GET', `/search?${query}`, { token: caller.token });

/** The ids of the songs (or other kind) found for `q`. */
async function ids(q: string, kind: 'songs' | 'artists' | 'playlists' = 'songs', caller: SignedIn = w.user) {
  const res = await find(`q=${encodeURIComponent(q)}&types=${kind}&limit=20`, caller);
  expect(res.status, q).toBe(200);
  return res.body[kind]!.map((row) => row.id);
}

/** Puts each song in as many (fresh) playlists as its count says. */
async function popularity(counts: Array<[Song, number]>) {
  const most = Math.max(...counts.map(([, n]) => n));
  for (let i = 0; i < most; i++) {
    await makePlaylist(w.api, w.admin, { songIds: counts.filter(([, n]) => n > i).map(([song]) => song.id) });
  }
}

describe('GET /v1/search: the request', () => {
  it('needs a signed-in caller', async () => {
    const res = await w.api.request('GET', '/search?q=abc');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(error('UNAUTHORIZED'));
  });

  it('answers 400 for a missing, empty or too long q, unknown types, or a limit outside 1 to 20', async () => {
    const bad = [
      '',
      'q=',
      `q=${'a'.repeat(101)}`,
      'q=abc&types=bogus',
      'q=abc&types=songs,bogus',
      'q=abc&types=songs,',
      'q=abc&limit=0',
      'q=abc&limit=21',
      'q=abc&limit=-1',
      'q=abc&limit=x',
    ];
    for (const query of bad) {
      const res = await find(query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual(
        expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
      );
    }
    for (const query of [
      `q=${'a'.repeat(100)}`,
      'q=a&limit=1',
      'q=a&limit=20',
      'q=a&types=playlists,albums',
    ]) {
      expect((await find(query)).status, query).toBe(200);
    }
  });

  it('answers all four kinds by default, only those asked for otherwise, never a pagination', async () => {
    const all = await find(`q=${uid()}`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ songs: [], artists: [], albums: [], playlists: [] });
    const some = await find(`q=${uid()}&types=albums,songs`);
    expect(some.body).toEqual({ songs: [], albums: [] });
    const one = await find(`q=${uid()}&types=playlists`);
    expect(one.body).toEqual({ playlists: [] });
  });

  it('answers at most `limit` of each kind, 5 by default', async () => {
    const t = uid();
    const artist = await makeArtist(w.api, w.admin, { name: `Band ${t}` });
    for (let i = 0; i < 7; i++)
      await makeSong(w.api, w.admin, { title: `${t} ${i}`, artistIds: [artist.id] });
    for (let i = 0; i < 6; i++) await makeArtist(w.api, w.admin, { name: `${t} ${i}` });
    const byDefault = await find(`q=${t}&types=songs,artists`);
    expect(byDefault.body.songs).toHaveLength(5);
    expect(byDefault.body.artists).toHaveLength(5);
    const two = await find(`q=${t}&limit=2`);
    expect(two.body.songs).toHaveLength(2);
    expect(two.body.artists).toHaveLength(2);
    const many = await find(`q=${t}&limit=20`);
    expect(many.body.songs).toHaveLength(7);
    expect(many.body.artists).toHaveLength(7);
  });

  it('gives each record as reading it alone does', async () => {
    const t = uid();
    const artist = await makeArtist(w.api, w.admin, { name: `Singer ${t}`, bio: 'Sings.' });
    const made = await makeSong(w.api, w.admin, {
      title: `Song ${t}`,
      album: `Album ${t}`,
      genre: 'Jazz',
      releaseYear: 1999,
      artistIds: [artist.id],
    });
    // Changed after it was made (what the finder reads is the song as it is now).
    expect(
      (await w.api.request('PATCH', `/songs/${made.id}`, { token: w.admin.token, body: { genre: 'Soul' } }))
        .status,
    ).toBe(200);
    const playlist = await makePlaylist(w.api, w.user, { name: `List ${t}`, songIds: [made.id] });
    const res = await find(`q=${t}&types=songs,artists,playlists`);
    const alone = async (path: string) => (await w.api.request('GET', path, { token: w.user.token })).body;
    expect(res.body.songs).toEqual([await alone(`/songs/${made.id}`)]);
    expect(res.body.artists).toEqual([await alone(`/artists/${artist.id}`)]);
    expect(res.body.playlists).toEqual([await alone(`/playlists/${playlist.id}`)]);
  });
});

describe('GET /v1/search: what is found, best first', () => {
  it('ranks songs and artists as sort=relevance does', async () => {
    const t = uid();
    const band = await makeArtist(w.api, w.admin, { name: `${t} Band` });
    const the = await makeArtist(w.api, w.admin, { name: `The ${t}` });
    const exactArtist = await makeArtist(w.api, w.admin, { name: t.toUpperCase() });
    const exact = await makeSong(w.api, w.admin, { title: t });
    const startsPopular = await makeSong(w.api, w.admin, { title: `${t} zz`, artistIds: [the.id] });
    const starts = await makeSong(w.api, w.admin, { title: `${t} Able` });
    const word = await makeSong(w.api, w.admin, { title: `Aaa ${t}` });
    const album = await makeSong(w.api, w.admin, { title: 'Aaa', album: t });
    const artistOnly = await makeSong(w.api, w.admin, { title: 'Bbb', artistIds: [band.id] });
    await popularity([
      [startsPopular, 2],
      [word, 4],
      [album, 6],
    ]);
    const res = await find(`q=${t}&types=songs,artists&limit=20`);
    expect(res.status).toBe(200);
    const songIds = [exact, startsPopular, starts, word, album, artistOnly].map((s) => s.id);
    expect(res.body.songs!.map((s) => s.id)).toEqual(songIds);
    // `The ${t}` is more popular (its song is in two playlists), but only has a word starting with it.
    expect(res.body.artists!.map((a) => a.id)).toEqual([exactArtist.id, band.id, the.id]);
    expect(res.body.songs![0]).toEqual(exact);
    expect(res.body.artists![0]).toEqual(exactArtist);
    const list = await w.api.request('GET', `/songs?search=${t}&sort=relevance`, { token: w.user.token });
    expect(list.body.data.map((s: Song) => s.id)).toEqual(songIds);
  });

  it('takes the last word as unfinished', async () => {
    const t = uid();
    const artist = await makeArtist(w.api, w.admin, { name: `Sigur Rós ${t}` });
    const song = await makeSong(w.api, w.admin, { title: 'Svefn-g-englar', artistIds: [artist.id] });
    expect(await ids(`${t} sigur ro`, 'artists')).toEqual([artist.id]);
    expect(await ids(`${t} sigur ro`)).toEqual([song.id]);
    expect(await ids(`${t} svefn engl`)).toEqual([song.id]);
    expect(await ids(`sigur ${t.slice(0, 6)}`, 'artists')).toEqual([artist.id]);
  });

  it('forgives one typo in a word of 5 to 8 letters', async () => {
    const t = uid();
    const hello = await makeSong(w.api, w.admin, { title: `Hello World ${t}` });
    const midnight = await makeSong(w.api, w.admin, { title: `Midnight ${t}` });
    expect(await ids(`hallo ${t}`)).toEqual([hello.id]);
    expect(await ids(`world hellu ${t}`)).toEqual([hello.id]);
    expect(await ids(`helllo ${t}`)).toEqual([hello.id]);
    expect(await ids(`mixnight ${t}`)).toEqual([midnight.id]);
    expect(await ids(`hullu ${t}`)).toEqual([]);
    expect(await ids(`mxdnxght ${t}`)).toEqual([]);
  });

  it('forgives two typos in a word of 9 letters or more, wherever they are', async () => {
    const t = uid();
    const wonderwall = await makeSong(w.api, w.admin, { title: `Wonderwall ${t}` });
    const everlasting = await makeSong(w.api, w.admin, { title: `Everlasting ${t}` });
    expect(await ids(`wondervall ${t}`)).toEqual([wonderwall.id]);
    expect(await ids(`wonderwaxx ${t}`)).toEqual([wonderwall.id]);
    expect(await ids(`wandarvall ${t}`)).toEqual([]);
    expect(await ids(`evxrlastxng ${t}`)).toEqual([everlasting.id]);
    for (const typed of ['wandervall', 'xondexwall', 'wovderwxll']) {
      expect(await ids(`${typed} ${t}`), typed).toEqual([wonderwall.id]);
    }
    expect(await ids(`evexlaxting ${t}`)).toEqual([everlasting.id]);
  });

  it('forgives no typo in a word of 4 letters', async () => {
    const t = uid();
    const bark = await makeSong(w.api, w.admin, { title: `Bark ${t}` });
    expect(await ids(`bark ${t}`)).toEqual([bark.id]);
    expect(await ids(`bork ${t}`)).toEqual([]);
    expect(await ids(`${t} bxrk`)).toEqual([]);
  });

  it('forgives a typo in a song’s album or artist name too', async () => {
    const t = uid();
    const artist = await makeArtist(w.api, w.admin, { name: `Hello ${t}` });
    const byArtist = await makeSong(w.api, w.admin, { title: 'Plain', artistIds: [artist.id] });
    const byAlbum = await makeSong(w.api, w.admin, { title: 'Plain', album: `Midnight ${t}` });
    const across = await makeSong(w.api, w.admin, { title: 'Wonderwall', album: `Live ${t}` });
    expect(await ids(`hallo ${t}`)).toEqual([byArtist.id]);
    expect(await ids(`mixnight ${t}`)).toEqual([byAlbum.id]);
    expect(await ids(`wondervall ${t}`)).toEqual([across.id]);
  });

  it('puts matches with a typo after the exact ones, however popular', async () => {
    const t = uid();
    const exact = await makeSong(w.api, w.admin, { title: `Zzz Hallo ${t}` });
    const typo = await makeSong(w.api, w.admin, { title: `Hello ${t}` });
    const typoArtist = await makeArtist(w.api, w.admin, { name: `Hello ${t}` });
    const exactArtist = await makeArtist(w.api, w.admin, { name: `Zzz Hallo ${t}` });
    const typoArtistSong = await makeSong(w.api, w.admin, { title: 'Plain', artistIds: [typoArtist.id] });
    await popularity([
      [typo, 3],
      [typoArtistSong, 3],
    ]);
    // (Whether the song found through its artist's name comes third is the test above's.)
    expect((await ids(`hallo ${t}`)).slice(0, 2)).toEqual([exact.id, typo.id]);
    expect(await ids(`hallo ${t}`, 'artists')).toEqual([exactArtist.id, typoArtist.id]);
  });

  it('finds public playlists and the caller’s own, never another user’s private one', async () => {
    const t = uid();
    const other = w.otherManager;
    const shared = await makePlaylist(w.api, other, { name: `Mïx ${t} shared`, isPublic: true });
    const hidden = await makePlaylist(w.api, other, { name: `Mix ${t} hidden` });
    const mine = await makePlaylist(w.api, w.user, { name: `Mix ${t} mine` });
    const sorted = (...lists: Playlist[]) => lists.map((p) => p.id).sort();
    expect((await ids(`mix ${t}`, 'playlists')).sort()).toEqual(sorted(shared, mine));
    expect((await ids(`mix ${t}`, 'playlists', other)).sort()).toEqual(sorted(shared, hidden));
    expect(await ids(`mix ${t}`, 'playlists', w.admin)).toEqual([shared.id]);
    expect(await ids(`${t} hidden`, 'playlists')).toEqual([]);
    const res = await find(`q=${encodeURIComponent(`${t} shared`)}&types=playlists`);
    expect(res.body.playlists).toEqual([shared]);
  });

  it('makes one album of the songs sharing a folded album name and a first artist', async () => {
    const t = uid();
    const [x, y, z, v] = [
      await makeArtist(w.api, w.admin),
      await makeArtist(w.api, w.admin),
      await makeArtist(w.api, w.admin),
      await makeArtist(w.api, w.admin),
    ];
    const spellings = [`Ágætis Byrjun ${t}`, `agaetis byrjun ${t}`, `AGAETIS BYRJUN ${t}`];
    await makeSong(w.api, w.admin, { album: spellings[0], artistIds: [x!.id] });
    await makeSong(w.api, w.admin, { album: spellings[1], artistIds: [x!.id, y!.id] });
    await makeSong(w.api, w.admin, { album: spellings[2], artistIds: [x!.id, v!.id] });
    await makeSong(w.api, w.admin, { album: `Agaetis Byrjun ${t}`, artistIds: [z!.id, x!.id] });
    await makeSong(w.api, w.admin, { album: `Takk ${t}`, artistIds: [x!.id] });
    const res = await find(`q=${encodeURIComponent(`agaetis ${t}`)}&types=albums`);
    expect(res.status).toBe(200);
    const albums = [...res.body.albums!].sort((a, b) => b.songCount - a.songCount);
    expect(albums).toEqual([
      { name: expect.any(String), artistIds: expect.any(Array), songCount: 3 },
      { name: `Agaetis Byrjun ${t}`, artistIds: [z!.id, x!.id], songCount: 1 },
    ]);
    expect(spellings).toContain(albums[0]!.name);
    expect(albums[0]!.artistIds[0]).toBe(x!.id);
    expect([...albums[0]!.artistIds].sort()).toEqual([x!.id, y!.id, v!.id].sort());
    const takk = await find(`q=${encodeURIComponent(`${t} takk`)}&types=albums`);
    expect(takk.body.albums).toEqual([{ name: `Takk ${t}`, artistIds: [x!.id], songCount: 1 }]);
  });
});
