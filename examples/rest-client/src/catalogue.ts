import { type BodyOf, documentedHeader, expectData, expectError } from './documented';
import type { Artist, Caller, Run, Song } from './run';
import { check, checkRecord, equal } from './steps';

/** The genre of this run's songs: GET /genres finds exactly it. */
export const genreOf = (run: Run) => `Example ${run.tag}`;

/** Durations out of title order, so sorting by duration is seen to reorder them. */
const DURATIONS = [200, 120, 300, 150, 240];

/** POST /artists as admin: 201 with Location and ETag. */
export function createArtist(run: Run, admin: Caller | undefined): Promise<Artist | undefined> {
  return run.scenario.step('create an artist (admin)', [admin], async ([{ client }], say) => {
    const body: BodyOf<'POST /artists'> = {
      name: `Example Artist ${run.tag}`,
      bio: 'Created by the REST client example.',
    };
    const result = await client.POST('/artists', { body });
    const artist = expectData(result, 'POST /artists', 201);
    checkRecord(artist, 'artist');
    equal({ name: artist.name, bio: artist.bio, userId: artist.userId }, { ...body, userId: null }, 'artist');
    equal(
      documentedHeader(result.response, 'POST /artists', 201, 'Location'),
      `/v1/artists/${artist.id}`,
      'Location',
    );
    documentedHeader(result.response, 'POST /artists', 201, 'ETag');
    say(`201 ${artist.name}`);
    return artist;
  });
}

/** POST /songs as admin, one per duration above, each linked to the artist. */
export function createSongs(run: Run, admin: Caller | undefined, artist: Artist | undefined) {
  return run.scenario.step('create songs (admin)', [admin, artist], async ([{ client }, { id }], say) => {
    const songs: Song[] = [];
    for (const [index, duration] of DURATIONS.entries()) {
      const body: BodyOf<'POST /songs'> = {
        title: `${run.tag} song ${index + 1}`,
        album: 'Example album',
        genre: genreOf(run),
        duration,
        releaseYear: 2020 + index,
        artistIds: [id],
      };
      const song = expectData(await client.POST('/songs', { body }), 'POST /songs', 201);
      checkRecord(song, 'song');
      const { title, album, genre, releaseYear, artistIds } = song;
      equal({ title, album, genre, duration: song.duration, releaseYear, artistIds }, body, 'song');
      songs.push(song);
    }
    say(`${songs.length} songs, 201 each, linked to the artist`);
    return songs;
  });
}

/**
 * A POST retried with the same `Idempotency-Key` (as after a lost answer): the retry changes
 * nothing and gets the first answer again, marked `Idempotent-Replayed: true`. The same key
 * with another body is refused (422 on the field `Idempotency-Key`).
 */
export function retryWithIdempotencyKey(run: Run, admin: Caller | undefined, artist: Artist | undefined) {
  return run.scenario.step(
    'retry a POST with the same Idempotency-Key',
    [admin, artist],
    async ([{ client }, { id }], say) => {
      const key = `example-${run.tag}-song`;
      const body: BodyOf<'POST /songs'> = {
        title: `${run.tag} song 6`,
        genre: genreOf(run),
        duration: 180,
        artistIds: [id],
      };
      const params = { header: { 'Idempotency-Key': key } };

      const first = await client.POST('/songs', { params, body });
      const song = expectData(first, 'POST /songs', 201);
      check(
        first.response.headers.get('Idempotent-Replayed') !== 'true',
        'the first answer says Idempotent-Replayed: true',
      );
      const retry = await client.POST('/songs', { params, body });
      const replayed = expectData(retry, 'POST /songs', 201);
      equal(
        documentedHeader(retry.response, 'POST /songs', 201, 'Idempotent-Replayed'),
        'true',
        'Idempotent-Replayed',
      );
      equal(replayed, song, 'the replayed song');
      for (const name of ['Location', 'ETag'] as const) {
        equal(
          documentedHeader(retry.response, 'POST /songs', 201, name),
          documentedHeader(first.response, 'POST /songs', 201, name),
          `the replayed ${name}`,
        );
      }
      // Search matches words in any order, so other songs may match too: the replay made no second
      // song with this very title.
      const list = await client.GET('/songs', { params: { query: { search: body.title, limit: 100 } } });
      const titled = expectData(list, 'GET /songs', 200).data.filter((s) => s.title === body.title);
      equal(titled.length, 1, `songs titled ${body.title}`);

      const changed: BodyOf<'POST /songs'> = { ...body, duration: 181 };
      const other = await client.POST('/songs', { params, body: changed });
      const error = expectError(other, 'POST /songs', 422);
      check(
        'errors' in error && error.errors.some((e) => e.field === 'Idempotency-Key'),
        `the key reused with another body got ${JSON.stringify(error)}, expected 422 on Idempotency-Key`,
      );
      say(`201 then the same 201 replayed (id ${song.id}); the key with another body: 422`);
      return song;
    },
  );
}
