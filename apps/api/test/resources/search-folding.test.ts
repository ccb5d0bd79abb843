import { describe, expect, it } from 'vitest';
import { type Artist, catalogueWorld, makeArtist, makeSong, type Song, tag } from '../support/catalogue';

const w = catalogueWorld();

const enc = encodeURIComponent;

/** A fresh tag without the letters a to f: it can hold none of the words searched for here. */
const uid = () => tag().replace(/[a-f]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 6));

/** The ids a list answers for `search=term` (with `extra` query parameters), as the user. */
async function found(collection: '/songs' | '/artists', term: string, extra = ''): Promise<string[]> {
  const res = await w.api.request<{ data: Array<{ id: string }> }>(
    'GET',
    `${collection}?search=${enc(term)}&limit=100${extra}`,
    { token: w.user.token },
  );
  expect(res.status, `${collection} search=${term}`).toBe(200);
  return res.body.data.map((row) => row.id);
}

/** The names a list of names answers for `search=term` (as the admin, who sees every user). */
async function names(path: '/genres' | '/users' | '/profiles', term: string): Promise<string[]> {
  const res = await w.api.request<{ data: Array<{ name?: string; username?: string }> }>(
    'GET',
    `${path}?search=${enc(term)}&limit=100`,
    { token: w.admin.token },
  );
  expect(res.status, `${path} search=${term}`).toBe(200);
  return res.body.data.map((row) => (row.name ?? row.username)!).sort();
}

/** ASCII written in full-width forms (the space as the ideographic space). */
const fullWidth = (text: string) =>
  [...text].map((c) => (c === ' ' ? '\u3000' : String.fromCharCode(c.charCodeAt(0) + 0xfee0))).join('');

// [stored, searched]: each pair must find the stored text, the tag making both unique.
const HARD_CASES: Array<[string, string]> = [
  ['AC/DC', 'ac dc'],
  ['AC/DC', 'acdc'],
  ['Spider-Man', 'spider man'],
  ['Spiderman', 'Spider-Man'],
  ['Beyoncé', 'beyonce'],
  ['Beyonce', 'BEYONCÉ'],
  ['Beyonce\u0301', 'beyonce'],
  ['Sigur Rós', 'sigur ros'],
  ['Łódź', 'lodz'],
  ['Lodz', 'ŁÓDŹ'],
  ['Œuvre', 'oeuvre'],
  ['straße', 'strasse'],
  ['STRASSE', 'straße'],
  ['Mötley Crüe', 'motley crue'],
  ['Røyksopp', 'royksopp'],
  ['Encyclopædia', 'encyclopaedia'],
  ['ＡＢＣ', 'abc'],
  ['abc', 'ＡＢＣ'],
  ['カタカナ', 'ｶﾀｶﾅ'],
  ['ﾊﾞﾝﾄﾞ', 'バンド'],
  ['Velvet Static', 'static velvet'],
  ['Rock & Roll', 'rock roll'],
  ['Hello,   World!', 'hello world'],
];

describe('search folding on GET /v1/songs', () => {
  it.each(HARD_CASES)('a title "%s" is found by "%s"', async (stored, searched) => {
    const t = uid();
    const song = await makeSong(w.api, w.admin, { title: `${stored} ${t}` });
    // Sharing the tag but not the words: found only if the words were ignored.
    await makeSong(w.api, w.admin, { title: `Decoy ${t}` });
    expect(await found('/songs', `${searched} ${t}`)).toEqual([song.id]);
    expect(await found('/songs', `${t} ${searched}`)).toEqual([song.id]);
  });

  it('finds a term written entirely in full-width forms', async () => {
    const t = uid();
    const song = await makeSong(w.api, w.admin, { title: `Abc Def ${t}` });
    await makeSong(w.api, w.admin, { title: `Abc ${t}` });
    expect(await found('/songs', fullWidth(`abc def ${t}`))).toEqual([song.id]);
  });

  it('takes words from the title, the album and the artist names together, in any order', async () => {
    const t = uid();
    const artist = await makeArtist(w.api, w.admin, { name: `Mötley Crüe ${t}` });
    const song = await makeSong(w.api, w.admin, {
      title: 'Velvet',
      album: 'Sigur Rós Live',
      artistIds: [artist.id],
    });
    await makeSong(w.api, w.admin, { title: 'Velvet', artistIds: [artist.id] });
    const other = await makeSong(w.api, w.admin, {
      title: 'Other',
      album: 'Sigur Rós Live',
      artistIds: [artist.id],
    });
    expect(await found('/songs', `sigur velvet crue ros ${t}`)).toEqual([song.id]);
    expect((await found('/songs', `${t} LIVE motley`)).sort()).toEqual([song.id, other.id].sort());
    expect(await found('/songs', `velvet live nowhere ${t}`)).toEqual([]);
  });

  it('still finds whatever a plain case-insensitive substring found', async () => {
    const t = uid();
    const word = await makeSong(w.api, w.admin, { title: `Xylophone${t}Zed` });
    const slash = await makeSong(w.api, w.admin, { title: `AC/DC ${t}` });
    const spaced = await makeSong(w.api, w.admin, { title: `Hello World ${t}` });
    const quoted = await makeSong(w.api, w.admin, { title: `Rock'n'Roll ${t}` });
    const album = await makeSong(w.api, w.admin, { title: 'x', album: `Greatest ${t}Hits` });
    expect(await found('/songs', `LOPHONE${t.toUpperCase()}Z`)).toEqual([word.id]);
    expect(await found('/songs', `C/DC ${t}`)).toEqual([slash.id]);
    expect(await found('/songs', `lo wOrLd ${t}`)).toEqual([spaced.id]);
    expect(await found('/songs', `k'n'r`, `&ids=${quoted.id},${spaced.id}`)).toEqual([quoted.id]);
    expect(await found('/songs', `${t.slice(3)}hi`)).toEqual([album.id]);
  });

  it('looks for a term with no letter or digit literally', async () => {
    const t = uid();
    const made: Song[] = [];
    for (const title of [`${t} 50/50`, `${t} 5050`, `${t} 100%`, `${t} 1000`, `${t} a_b`]) {
      made.push(await makeSong(w.api, w.admin, { title }));
    }
    const ids = `&ids=${made.map((s) => s.id).join(',')}`;
    expect(await found('/songs', '/', ids)).toEqual([made[0]!.id]);
    expect(await found('/songs', '%', ids)).toEqual([made[2]!.id]);
    expect(await found('/songs', '_', ids)).toEqual([made[4]!.id]);
    expect(await found('/songs', '%%', ids)).toEqual([]);
  });
});

describe('search folding on GET /v1/artists, /genres, /users and /profiles', () => {
  it.each(HARD_CASES.filter((_, i) => i % 2 === 0))(
    'an artist "%s" is found by "%s"',
    async (stored, searched) => {
      const t = uid();
      const artist = await makeArtist(w.api, w.admin, { name: `${stored} ${t}` });
      await makeArtist(w.api, w.admin, { name: `Decoy ${t}` });
      expect(await found('/artists', `${searched} ${t}`)).toEqual([artist.id]);
    },
  );

  it('looks for an artist name with no letter or digit literally, and substrings still', async () => {
    // No 5 in the tag: the term below looks for "50", which a tag holding it would put in every name.
    const t = uid().replace(/5/g, 'x');
    const made: Artist[] = [];
    for (const name of [`${t} 50/50`, `${t} 5050`, `${t} 100%`, `${t} 1000`]) {
      made.push(await makeArtist(w.api, w.admin, { name }));
    }
    const ids = `&ids=${made.map((a) => a.id).join(',')}`;
    expect(await found('/artists', '/', ids)).toEqual([made[0]!.id]);
    expect(await found('/artists', '%', ids)).toEqual([made[2]!.id]);
    expect((await found('/artists', `${t.slice(2).toUpperCase()} 50`)).sort()).toEqual(
      [made[0]!.id, made[1]!.id].sort(),
    );
  });

  it('folds the genre name and finds part of it', async () => {
    const t = uid();
    const genres = [`Folk ${t}`, `Post-Rock ${t}`, `Música Popular ${t}`, `Jazz ${t}`, `${t} 50/50`];
    for (const genre of genres) await makeSong(w.api, w.admin, { genre });
    expect(await names('/genres', `fol ${t}`)).toEqual([`Folk ${t}`]);
    expect(await names('/genres', `post rock ${t}`)).toEqual([`Post-Rock ${t}`]);
    expect(await names('/genres', `${t} postrock`)).toEqual([`Post-Rock ${t}`]);
    expect(await names('/genres', `MUSICA ${t}`)).toEqual([`Música Popular ${t}`]);
    expect((await names('/genres', '/')).filter((name) => name.includes(t))).toEqual([`${t} 50/50`]);
  });

  it('folds usernames on /users and /profiles', async () => {
    const t = uid();
    const username = `Zoë Łukasz-Ødegård ${t}`;
    for (const name of [username, `Zoe ${t}`]) {
      const res = await w.api.request('POST', '/users', {
        body: { username: name, email: `${tag()}@example.com`, password: `pw-${tag()}` },
      });
      expect(res.status).toBe(201);
    }
    for (const path of ['/users', '/profiles'] as const) {
      expect(await names(path, `zoe lukasz odegard ${t}`), path).toEqual([username]);
      expect(await names(path, `${t} ODEGARD`), path).toEqual([username]);
      expect(await names(path, `zoe ${t}`), path).toEqual([`Zoe ${t}`, username].sort());
    }
  });
});

describe('writes are visible to the next search', () => {
  it('finds a created song at once, and a renamed one by its new name only', async () => {
    const t = uid();
    const finder = async (q: string) =>
      (
        await w.api.request('GET', `/search?q=${enc(q)}&types=songs`, { token: w.user.token })
      ).body.songs?.map((s: Song) => s.id);
    expect(await found('/songs', `beyonce ${t}`)).toEqual([]);
    expect(await finder(`beyonce ${t}`)).toEqual([]);
    const song = await makeSong(w.api, w.admin, { title: `Beyoncé ${t}` });
    expect(await found('/songs', `beyonce ${t}`)).toEqual([song.id]);
    expect(await finder(`beyonce ${t}`)).toEqual([song.id]);
    const renamed = await w.api.request('PATCH', `/songs/${song.id}`, {
      token: w.admin.token,
      body: { title: `Mötley Crüe ${t}` },
    });
    expect(renamed.status).toBe(200);
    expect(await found('/songs', `beyonce ${t}`)).toEqual([]);
    expect(await found('/songs', `motley crue ${t}`)).toEqual([song.id]);
    expect(await finder(`beyonce ${t}`)).toEqual([]);
    expect(await finder(`motley crue ${t}`)).toEqual([song.id]);
  });

  it('finds a created artist at once, and after a rename its songs by the new name only', async () => {
    const t = uid();
    expect(await found('/artists', `sigur ros ${t}`)).toEqual([]);
    const artist = await makeArtist(w.api, w.admin, { name: `Sigur Rós ${t}` });
    expect(await found('/artists', `sigur ros ${t}`)).toEqual([artist.id]);
    const song = await makeSong(w.api, w.admin, { title: 'Hoppípolla', artistIds: [artist.id] });
    expect(await found('/songs', `sigur ros ${t}`)).toEqual([song.id]);
    const renamed = await w.api.request('PATCH', `/artists/${artist.id}`, {
      token: w.admin.token,
      body: { name: `Łódź ${t}` },
    });
    expect(renamed.status).toBe(200);
    expect(await found('/artists', `sigur ros ${t}`)).toEqual([]);
    expect(await found('/artists', `lodz ${t}`)).toEqual([artist.id]);
    expect(await found('/songs', `sigur ros ${t}`)).toEqual([]);
    expect(await found('/songs', `lodz hoppipolla ${t}`)).toEqual([song.id]);
    const finder = await w.api.request('GET', `/search?q=${enc(`lodz ${t}`)}&types=artists,songs`, {
      token: w.user.token,
    });
    expect(finder.body.artists.map((a: Artist) => a.id)).toEqual([artist.id]);
    expect(finder.body.songs.map((s: Song) => s.id)).toEqual([song.id]);
  });
});
