// The search bench's requests (every one distinct, so no cache answers any) and the closed loop
// that sends them, timing each request so the slowest can be named.
import { performance } from 'node:perf_hooks';
import { LeanConnection, serialise } from './lean-client';
import { randomStream, SPECIAL_WORDS } from './search-catalogue';
import { WORDS } from './seed';

/** Real names to type: titles and artist names read back from the seeded database. */
export interface Texts {
  titles: string[];
  artists: string[];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `text`'s first `n` characters (code points, not UTF-16 units), without trailing spaces. */
const prefix = (text: string, n: number) => Array.from(text).slice(0, n).join('').trim();

/** One typo in a word of five letters or more: a letter replaced, dropped, doubled or swapped. */
function typo(word: string, random: () => number): string {
  const chars = Array.from(word);
  if (chars.length < 5) return word;
  const at = 1 + Math.floor(random() * (chars.length - 2));
  const op = Math.floor(random() * 4);
  if (op === 0) chars[at] = LETTERS[Math.floor(random() * LETTERS.length)]!;
  else if (op === 1) chars.splice(at, 1);
  else if (op === 2) chars.splice(at, 0, chars[at]!);
  else [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!];
  return chars.join('');
}

/**
 * A source of distinct strings: `make` proposes, repeats are refused (across every source sharing
 * `used`). Undefined when no new one turns up in many tries: the run stops rather than repeat.
 */
function distinct(used: Set<string>, make: () => string, accept: (s: string) => boolean) {
  return (): string | undefined => {
    for (let tries = 0; tries < 200; tries++) {
      const s = make();
      if (accept(s) && !used.has(s)) {
        used.add(s);
        return s;
      }
    }
    return undefined;
  };
}

function pickFrom(random: () => number) {
  return <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
}

/** Words of a name worth a typo (five letters or more). */
const longWords = (text: string) => text.split(/\s+/).filter((w) => Array.from(w).length >= 5);

/**
 * What someone types into the finder: the first 1 to 30 characters of a title or an artist's
 * name, half of them in lower case; one in seven with a typo in a long word; one in five two
 * names at once (an artist's word, then the start of a title).
 */
export function finderQueries(texts: Texts, used: Set<string>, seed: number) {
  const random = randomStream(seed);
  const pick = pickFrom(random);
  const length = () => 1 + Math.floor(random() * 30);
  const make = () => {
    const r = random();
    let q: string;
    if (r < 0.4) q = prefix(pick(texts.titles), length());
    else if (r < 0.65) q = prefix(pick(texts.artists), length());
    else if (r < 0.8) {
      const source = random() < 0.6 ? pick(texts.titles) : pick(texts.artists);
      const words = longWords(source);
      q = words.length > 0 ? typo(pick(words), random) : prefix(source, length());
    } else {
      const artistWord = pick(pick(texts.artists).split(' '));
      q = prefix(`${artistWord} ${pick(texts.titles)}`, Array.from(artistWord).length + 1 + length());
    }
    q = prefix(q, 30);
    return random() < 0.5 ? q.toLowerCase() : q;
  };
  return distinct(used, make, (q) => q.length > 0);
}

/**
 * Search terms for a song list, three characters or more: common single words (and their
 * starts), title words side by side, artist names, and rare pairs of a title word and an
 * artist's.
 */
export function listTerms(texts: Texts, used: Set<string>, seed: number) {
  const random = randomStream(seed);
  const pick = pickFrom(random);
  const make = () => {
    const r = random();
    let term: string;
    if (r < 0.35) {
      const w = random() < 0.8 ? pick(WORDS) : pick(SPECIAL_WORDS);
      const chars = Array.from(w);
      term = random() < 0.5 ? w : prefix(w, 3 + Math.floor(random() * Math.max(1, chars.length - 2)));
    } else if (r < 0.6) {
      const words = pick(texts.titles).split(' ');
      const at = Math.floor(random() * words.length);
      term = words.slice(at, at + 2).join(' ');
    } else if (r < 0.8) {
      const name = pick(texts.artists);
      term = random() < 0.5 ? name : pick(name.split(' '));
    } else {
      term = `${pick(pick(texts.titles).split(' '))} ${pick(pick(texts.artists).split(' '))}`;
    }
    term = term.trim();
    return random() < 0.5 ? term.toLowerCase() : term;
  };
  return distinct(used, make, (t) => Array.from(t).length >= 3);
}

/** One answered (or failed) request: what was searched, and how long the answer took. */
export interface Timing {
  q: string;
  ms: number;
  status: number | string;
}

export interface ClassFigures {
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Transport errors and timeouts. */
  errors: number;
  /** Answers that were not 2xx. */
  non2xx: number;
  /** The distinct requests ran out before the time was up (the run stopped early). */
  exhausted: boolean;
  slowest: Timing[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Closed-loop load: `connections` connections each send their next request as soon as the last
 * is answered, for `seconds`. Every request is new (`next`), so each is timed on its own.
 */
export async function distinctLoad(
  base: string,
  headers: Record<string, string>,
  next: () => { path: string; q: string } | undefined,
  options: { connections: number; seconds: number; timeoutMs?: number },
): Promise<ClassFigures> {
  const url = new URL(base);
  const timings: Timing[] = [];
  let exhausted = false;
  const open: LeanConnection[] = [];
  const connect = () => {
    const conn = new LeanConnection(url.hostname, Number(url.port));
    open.push(conn);
    return conn;
  };
  const started = performance.now();
  const until = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      let conn = connect();
      while (performance.now() < until) {
        const request = next();
        if (!request) {
          exhausted = true;
          return;
        }
        if (conn.dead) conn = connect();
        const payload = serialise({ path: request.path, headers }, url.host);
        const sent = performance.now();
        const status = await new Promise<number | Error>((resolve) =>
          conn.send(payload, resolve, options.timeoutMs ?? 30_000),
        );
        timings.push({
          q: request.q,
          ms: round(performance.now() - sent),
          status: status instanceof Error ? status.message : status,
        });
      }
    }),
  );
  for (const conn of open) conn.close();
  const elapsed = (performance.now() - started) / 1000;
  const answered = timings.filter((t) => typeof t.status === 'number');
  const latencies = answered.map((t) => t.ms).sort((a, b) => a - b);
  return {
    connections: options.connections,
    seconds: round(elapsed),
    requests: timings.length,
    rps: round(answered.length / elapsed),
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    errors: timings.length - answered.length,
    non2xx: answered.filter((t) => (t.status as number) >= 300).length,
    exhausted,
    slowest: [...timings].sort((a, b) => b.ms - a.ms).slice(0, 10),
  };
}
