import { pageMode, parseLinks } from '@music/sdk';
import { genreOf } from './catalogue';
import { documentedHeader, expectData } from './documented';
import type { Caller, Run, Song } from './run';
import { check, equal } from './steps';

const PAGE_SIZE = 2;
/** Enough for this run's songs; more pages than this means `next` never ends. */
const MAX_PAGES = 20;

/**
 * Pages through this run's songs by following `rel="next"` until there is none, as a client
 * that never builds page URLs itself would. Each link must be a full URL on the API that keeps
 * the request's other parameters; together the pages hold every song once, in title order.
 */
export function followNextLinks(run: Run, listener: Caller | undefined) {
  return run.scenario.step('page through songs by the Link header', [listener], async ([{ client }], say) => {
    const origin = new URL(run.apiUrl).origin;
    const seen: Song[] = [];
    let page = 1;
    let total = 0;
    for (let pages = 1; ; pages++) {
      check(pages <= MAX_PAGES, `rel="next" still present after ${MAX_PAGES} pages`);
      const result = await client.GET('/songs', {
        params: { query: { search: run.tag, limit: PAGE_SIZE, page } },
      });
      const list = expectData(result, 'GET /songs', 200);
      total = pageMode(list.pagination).total;
      seen.push(...list.data);
      const links = parseLinks(
        documentedHeader(result.response, 'GET /songs', 200, 'Link'),
        new URL(run.apiUrl),
      );
      check(links.has('first') && links.has('last'), `page ${page}'s Link lacks rel="first" or rel="last"`);
      equal(links.has('prev'), page > 1, `page ${page} has rel="prev"`);
      const next = links.get('next');
      if (next === undefined) {
        equal(pages, Math.ceil(total / PAGE_SIZE), 'pages until rel="next" disappeared');
        break;
      }
      equal(`${next.origin}${next.pathname}`, `${origin}/v1/songs`, 'the rel="next" URL');
      equal(next.searchParams.get('search'), run.tag, 'search kept in rel="next"');
      equal(next.searchParams.get('limit'), String(PAGE_SIZE), 'limit kept in rel="next"');
      equal(next.searchParams.get('page'), String(page + 1), 'page in rel="next"');
      page += 1;
    }
    equal(seen.length, total, 'songs seen across the pages');
    equal(new Set(seen.map((song) => song.id)).size, total, 'distinct songs across the pages');
    const titles = seen.map((song) => song.title);
    equal(titles, [...titles].sort(), 'the titles across the pages (ordered by title)');
    // What a client does day to day: the SDK's iterator follows the same links by itself.
    const listed: string[] = [];
    for await (const song of client.list('/songs', { query: { search: run.tag, limit: PAGE_SIZE } })) {
      listed.push(song.id);
    }
    equal(
      listed,
      seen.map((song) => song.id),
      'the songs client.list() iterates',
    );
    say(
      `${page} pages of ${PAGE_SIZE} followed by rel="next": ${total} songs, each once, by title; client.list() the same`,
    );
    return seen;
  });
}

/** `sort=-duration`: the same songs, longest first (ties by id). */
export function sortByDuration(run: Run, listener: Caller | undefined) {
  return run.scenario.step('sort songs by duration', [listener], async ([{ client }], say) => {
    const query = { search: run.tag, sort: '-duration', limit: 100 };
    const list = expectData(await client.GET('/songs', { params: { query } }), 'GET /songs', 200);
    const durations = list.data.map((song) => song.duration);
    check(list.data.length > 1, `only ${list.data.length} songs found for the run`);
    equal(
      durations,
      [...durations].sort((a, b) => b - a),
      'durations with sort=-duration',
    );
    say(`sort=-duration: ${durations.join(', ')} seconds`);
    return true as const;
  });
}

/** GET /genres: this run's genre, counting the songs GET /songs?genre= finds with it. */
export function listGenres(run: Run, listener: Caller | undefined) {
  return run.scenario.step('list genres', [listener], async ([{ client }], say) => {
    const name = genreOf(run);
    const songs = await client.GET('/songs', { params: { query: { genre: name, limit: 1 } } });
    const songCount = pageMode(expectData(songs, 'GET /songs', 200).pagination).total;
    check(
      songCount >= 5,
      `GET /songs?genre= finds ${songCount} songs of the run's genre, expected at least 5`,
    );
    const list = expectData(
      await client.GET('/genres', { params: { query: { search: name } } }),
      'GET /genres',
      200,
    );
    equal(list.data, [{ name, songCount }], `genres matching ${name}`);
    equal(pageMode(list.pagination).total, 1, 'genres total');
    say(`${name}: ${songCount} songs`);
    return true as const;
  });
}
