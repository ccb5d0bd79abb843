import { type Expression, type RawBuilder, sql } from 'kysely';
import { prefixEnd } from '../like';
import type { Db } from '../schema';
import { readCache } from './read-cache';
import { foldTerm, type SearchTerm, type Spellings, searchedRuns, spellingsOf } from './search-terms';

/**
 * The finder behind `GET /search`: the best few songs, artists, albums and playlists for a term
 * typed so far. Each kind is ranked as `sort=relevance` ranks a list (exact, starts with, a word
 * starts with, other; then popularity, then name, then id), and then come the matches with typos:
 * a word of 5 to 8 letters may be one edit away, of 9 or more two.
 *
 * Bounded, so its cost does not grow with the catalogue, in stages that stop as soon as the
 * answer is full (a later stage can only add lower tiers):
 *
 * 1. b-trees only: the first `PREFIX_CANDIDATES` names starting with the term (exact matches
 *    first), and for songs also those whose album or an artist's name starts with it;
 * 2. only for a kind whose table holds at most `WIDER_ROWS` rows: up to `OTHER_CANDIDATES` other
 *    matches from the trigram index, when a word of the term has three characters or more (a word
 *    inside a name, a song found by its album or artists). The table's size bounds its cost; at a
 *    million songs a common word's trigrams list tens of thousands of songs, tens of milliseconds
 *    to read for any answer of five, so the larger kinds skip it. It runs in stage 1's statement
 *    (a name starting with the term rarely fills a small kind's answer);
 * 3. only when a kind's answer is not full yet, typos: each word of five letters or more is
 *    looked up in the vocabulary of the catalogue's words (`search_vocabulary`, tens or hundreds
 *    of thousands of words, not a million texts: the lookup costs 1.5-10 ms at 370,000 words) for
 *    words within its allowance of edits (the last word also as the start of a longer one); the
 *    names matching with those spellings are then found as in stages 1 and 2.
 *
 * Every kind asked for is ranked, and its rows read, in the same statement (`rankShares`): one
 * statement for the strict matches, and for typos the vocabulary's lookup and one more, whatever
 * the number of kinds.
 *
 * A list with `sort=relevance` ranks every match; the finder ranks the candidates these stages
 * give, which at a small catalogue are every match, and at a large one the first in name order.
 */
export const PREFIX_CANDIDATES = 20;
export const OTHER_CANDIDATES = 300;
/** Stage 2 runs for a kind whose table holds at most this many rows. */
const WIDER_ROWS = 50_000;

const hasTrigramWord = (term: SearchTerm) => searchedRuns(term).some((run) => run.length >= 3);

/**
 * What every finder statement runs with, for its transaction only: one generic plan per prepared
 * statement (see `finderTransaction`); no JIT compilation (a generic plan's cost is estimated
 * without the term, for hundreds of candidates: a variant of these statements passed
 * `jit_above_cost` and spent 30 ms compiling a statement that runs in one or two; none of these
 * does today, and none should); and the trigram word similarity that admits a typo's spelling
 * (at least 0.2: two edits in a word of nine letters keep a fifth of its trigrams).
 */
const FINDER_SETTINGS = sql`set_config('plan_cache_mode', 'force_generic_plan', true),
  set_config('jit', 'off', true),
  set_config('pg_trgm.word_similarity_threshold', '0.2', true)`;

/** How many spellings a word has with typos forgiven: itself and up to eight vocabulary words. */
const SPELLINGS = 9;

/** A word's allowance of edits: none below 5 letters, one for 5 to 8, two from 9. */
const allowance = (word: string) => (Array.from(word).length >= 9 ? 2 : Array.from(word).length >= 5 ? 1 : 0);

/**
 * The term's spellings with typos forgiven, or undefined when no word of it may have one (all
 * shorter than five letters). Each word of five letters or more may also be any vocabulary word
 * within its allowance of edits (the last word, still being typed, also any word whose start is);
 * the words are found by trigram word similarity (at least 0.2: two edits in a word of nine
 * letters keep a fifth of its trigrams, set by `finderTransaction`) and checked by edit distance.
 */
async function typoSpellings(trx: Db, term: SearchTerm): Promise<Spellings | undefined> {
  if (!term.words.some((word) => allowance(word) > 0)) return undefined;
  const last = term.words.length;
  const { rows } = await sql<{ i: number; words: string[] }>`
      select q.i::int as i, array(
        select v.word from search_vocabulary v
        where q.w <% v.word and v.word <> q.w
          and (levenshtein_less_equal(q.w, v.word, q.k) <= q.k
            or (q.i = ${last} and length(v.word) > length(q.w)
              and levenshtein_less_equal(q.w, left(v.word, length(q.w)), q.k) <= q.k))
        order by levenshtein_less_equal(q.w, v.word, q.k), v.word
        limit ${SPELLINGS - 1}
      ) as words
      from (select w, i, case when length(w) >= 9 then 2 when length(w) >= 5 then 1 else 0 end as k
        from unnest(${term.words}::text[]) with ordinality as t(w, i)) q
      where q.k > 0`.execute(trx);
  const alternatives = new Map(rows.map((row) => [row.i, row.words]));
  if (![...alternatives.values()].some((words) => words.length > 0)) return undefined;
  // Each word's spellings padded with the word itself to SPELLINGS: the statements checking them
  // (`holdsSpellings`) then have one text per number of words, not one per count of alternatives
  // of each word, and each text is planned once per connection. An index lookup drops the repeats
  // (`matchesSpellings`).
  return term.words.map((word, i) => {
    const found = [word, ...(alternatives.get(i + 1) ?? [])];
    return [...found, ...Array<string>(SPELLINGS - found.length).fill(word)];
  });
}

/**
 * A term as the finder looks for it: its words, and (looked up once, only if a kind needs them)
 * the spellings that forgive its typos and the catalogue's sizes.
 */
export interface FinderTerm {
  term: SearchTerm;
  typos(): Promise<Spellings | undefined>;
  sizes(): Promise<Record<string, number>>;
}

/**
 * `term` as the finder's transaction `trx` looks for it. The catalogue's sizes are read through
 * `trx` too (on the embedded database, a statement on another connection would wait for this
 * one's transaction to end), but cached for `database`: a transaction lives for one request.
 */
function finderTerm(trx: Db, term: SearchTerm, database: Db): FinderTerm {
  let typos: Promise<Spellings | undefined> | undefined;
  return {
    term,
    typos: () => (typos ??= typoSpellings(trx, term)),
    sizes: () => catalogueSizes.get(database, trx),
  };
}

/**
 * Runs a search for `raw` in one read-only transaction: one snapshot for every kind, and on a
 * server connection of our own (prepared statements, see the driver) one plan per statement, kept
 * for the connection's life (`plan_cache_mode`), instead of a plan made for each execution, which
 * at a million songs cost as much as running the statement. The finder's statements are written
 * for that: a key's start is a range of its b-tree (`startsWith`), not a pattern the planner must
 * see, and candidates are few and checked by primary key, so one plan serves every term. Behind
 * a pooler statements are unnamed and planned each time; the setting changes nothing there.
 */
export async function finderTransaction<T>(
  db: Db,
  raw: string,
  work: (trx: Db, term: FinderTerm) => Promise<T>,
): Promise<T> {
  return db
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => work(trx, finderTerm(trx, await foldTerm(trx, raw, FINDER_SETTINGS), db)));
}

/**
 * How long a process reuses the catalogue's sizes: they only choose whether the trigram stage
 * runs, and a catalogue crossing `WIDER_ROWS` may be searched the old way a few seconds longer.
 */
const catalogueSizes = readCache(10_000, (db) =>
  db
    .selectFrom('row_counts')
    .select(['table_name', 'total'])
    .execute()
    .then((rows) => Object.fromEntries(rows.map((row) => [row.table_name, Number(row.total)]))),
);

/** Forgets the sizes read (a test that changes them reads them again at once). */
export function forgetCatalogueSizes(db: Db): void {
  catalogueSizes.forget(db);
}

/**
 * Whether `column` (a folded key, collation "C") starts with `text`, as a range of the key's
 * b-tree. Not `LIKE 'text%'`: the planner turns a pattern into a range only when it sees the
 * pattern, so a prepared statement with the pattern as a parameter could never keep one plan.
 * With the range, the finder's statements keep theirs (see `finderTransaction`).
 */
export function startsWith(column: RawBuilder<unknown>, text: string): RawBuilder<boolean> {
  const end = prefixEnd(text);
  return end === undefined
    ? sql<boolean>`${column} >= ${text}`
    : sql<boolean>`(${column} >= ${text} and ${column} < ${end})`;
}

/** Rows of `table` whose `column` (a folded key) starts with `text`: the first in key order. */
export const keyStarts = (table: string, column: string, text: string, where = sql`true`) =>
  sql`(select id from ${sql.table(table)} where ${where} and ${startsWith(sql.ref(column), text)}
    order by ${sql.ref(column)} limit ${PREFIX_CANDIDATES})`;

/** Ids whose name of `kind` (`search_starts`) has a word after its first starting with `text`. */
export const wordStarts = (kind: string, text: string) =>
  sql`(select id from search_starts where kind = ${kind} and ${startsWith(sql.ref('start'), text)}
    order by start limit ${PREFIX_CANDIDATES})`;

/** The longest of the words: what a term of several words is also looked for by. */
export const longestOf = (words: readonly string[]) =>
  words.reduce((a, b) => (b.length > a.length ? b : a), '');

/** A row a kind's ranking statement gives: its id, and what is shown of it (as JSON). */
export interface FoundRow {
  id: string;
  detail: unknown;
}

/** One kind's part in the stages: how its candidates are found and how they are ranked. */
export interface Stages {
  /** The table whose size decides whether stage 2 runs (`WIDER_ROWS`). */
  table: 'songs' | 'artists' | 'playlists';
  /** Stage 1's first look, when a kind has one: names starting with the key (tiers 0 and 1). */
  named?: (key: string) => RawBuilder<unknown>;
  /** Stage 1: candidates from b-trees for the words as spelled. */
  stageOne: (spelled: readonly string[]) => RawBuilder<unknown>;
  /** Stage 2: other candidates from the trigram index. */
  containing: (spellings: Spellings) => RawBuilder<unknown>;
  /**
   * What is shown of a row found, for a kind whose `among` gives no `detail`: a query of the one
   * row whose id is `id` (text), read only for the rows kept.
   */
  shown?: (id: RawBuilder<string>) => Expression<unknown>;
  /**
   * A query (not run) of the candidates in the relation `candidates` (a column `id`) holding the
   * spellings, except `exclude` (ids): `id`, `detail` (or null) and `n`, the place in the order,
   * by tier for the term first when `ranked` (strict matches), else by popularity (typos); its
   * caller keeps the first `limit`.
   */
  among: (
    candidates: RawBuilder<unknown>,
    spellings: Spellings,
    ranked: boolean,
    exclude: RawBuilder<unknown>,
  ) => RawBuilder<unknown>;
}

/** One kind's share of a ranking statement: where its candidates come from, how many to keep. */
interface Share {
  stages: Stages;
  candidates: RawBuilder<unknown>;
  spellings: Spellings;
  ranked: boolean;
  limit: number;
  exclude: readonly string[];
}

/**
 * The ranked rows of several kinds in one statement (a statement costs its round trip and its
 * start whatever it does, so a search runs one per stage, not one per kind and stage). A kind
 * with nothing left to find keeps its place with a limit of 0, which reads none of its rows: the
 * statement's text then depends on the kinds asked for, the term's number of words and the
 * catalogue's size only, and keeps its plan (see `finderTransaction`).
 */
async function rankShares(db: Db, shares: readonly Share[]): Promise<FoundRow[][]> {
  if (shares.length === 0) return [];
  const ctes = shares.map((share, k) => sql`${sql.raw(`c${k}`)} as materialized (${share.candidates})`);
  const parts = shares.map((share, k) => {
    const among = share.stages.among(
      sql.raw(`c${k}`),
      share.spellings,
      share.ranked,
      sql`${share.exclude}::text[]`,
    );
    const shown = share.stages.shown;
    // The rows kept are read whole here (not in a statement after): after the limit, so a
    // candidate left out is never read.
    const detail = shown ? sql`(select row_to_json(q) from ${shown(sql<string>`x.id`)} q)` : sql`x.detail`;
    return sql`(select ${sql.lit(k)}::int as k, x.id, x.n, ${detail} as detail
      from (select b.id, b.detail, b.n from (${among}) b order by b.n limit ${share.limit}) x)`;
  });
  const { rows } = await sql<FoundRow & { k: number }>`with ${sql.join(ctes)}
    select * from (${sql.join(parts, sql` union all `)}) u order by k, n`.execute(db);
  const found: FoundRow[][] = shares.map(() => []);
  for (const { k, id, detail } of rows) found[k]!.push({ id, detail });
  return found;
}

/**
 * The best `limit` of each kind for the term, through the stages this module describes, typos
 * last: one statement per stage for every kind that needs it.
 */
export async function staged(
  db: Db,
  found: FinderTerm,
  limit: number,
  kinds: readonly Stages[],
): Promise<FoundRow[][]> {
  const { term } = found;
  if (term.words.length === 0) return kinds.map(() => []);
  const strict = spellingsOf(term);
  // Names starting with the term rank first and always match: when they fill the answer, no
  // other candidate can enter it, and the rest of stage 1 is not read (a one-time filter in the
  // same statement).
  const first = (stages: Stages) =>
    stages.named
      ? sql`with named as materialized ${stages.named(term.key)}
        select id from named
        union select id from (${stages.stageOne(term.words)}) s where (select count(*) from named) < ${limit}`
      : stages.stageOne(term.words);
  const share = (stages: Stages, candidates: RawBuilder<unknown>, rest: Partial<Share> = {}): Share => ({
    stages,
    candidates,
    spellings: strict,
    ranked: true,
    limit,
    exclude: [],
    ...rest,
  });
  // A kind whose table is small (stage 2) has its trigram matches among the first candidates: a
  // name starting with the term rarely fills its answer there, and a second statement would
  // cost more than the bounded trigram lookup saves.
  const sizes = hasTrigramWord(term) ? await found.sizes() : {};
  const wider = kinds.map((stages) => hasTrigramWord(term) && (sizes[stages.table] ?? 0) <= WIDER_ROWS);
  const all = (stages: Stages, spellings: Spellings, spelled: readonly string[]) =>
    sql`${stages.stageOne(spelled)} union ${stages.containing(spellings)}`;
  const rows = await rankShares(
    db,
    kinds.map((stages, k) => share(stages, wider[k] ? all(stages, strict, term.words) : first(stages))),
  );
  if (kinds.every((_, k) => rows[k]!.length >= limit)) return rows;
  const spellings = await found.typos();
  if (!spellings) return rows;
  // Typos: the names holding the closest spelling of each word, then (small tables) any other.
  const closest = spellings.map((alternatives) => alternatives[1] ?? alternatives[0]!);
  const typos = await rankShares(
    db,
    kinds.map((stages, k) =>
      share(stages, wider[k] ? all(stages, spellings, closest) : stages.stageOne(closest), {
        spellings,
        ranked: false,
        limit: limit - rows[k]!.length,
        exclude: rows[k]!.map((row) => row.id),
      }),
    ),
  );
  return rows.map((strictRows, k) => [...strictRows, ...typos[k]!]);
}
