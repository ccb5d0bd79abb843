import { type Expression, type RawBuilder, sql } from 'kysely';
import { likeContains, likePrefix } from '../like';
import type { Db } from '../schema';

/**
 * A search term as the database folds it (`search_fold`, the search-folding migration): `key` is
 * the folded term ("Spider‐Man" → "spider man"), `words` its words. A term with no letter or digit
 * at all ("/", "🚗") has no words: it matches as a plain case-insensitive substring of the text
 * (what search did before folding), so nothing that was found then is lost now.
 */
export interface SearchTerm {
  raw: string;
  key: string;
  words: string[];
}

/** How many folded terms one process remembers (folding is a pure function of the term). */
const FOLDED_CACHE_SIZE = 2_000;
const folded = new Map<string, SearchTerm>();

/**
 * The term folded by the database, so stored text and terms fold by one definition. The result is
 * remembered: a repeated term costs no round trip. The words then reach each query as parameters,
 * which lets the planner weigh them against the trigram and b-tree indexes. `alongside`: more to
 * select in the same round trip (settings), selected alone when the term is remembered.
 */
export async function foldTerm(db: Db, raw: string, alongside?: RawBuilder<unknown>): Promise<SearchTerm> {
  const known = folded.get(raw);
  if (known) {
    if (alongside) await sql`select ${alongside}`.execute(db);
    return known;
  }
  const { rows } = await sql<{ key: string }>`select search_fold(${raw}) as key
    ${alongside ? sql`, ${alongside}` : sql``}`.execute(db);
  const key = rows[0]?.key ?? '';
  const term = { raw, key, words: key === '' ? [] : key.split(' ') };
  folded.set(raw, term);
  if (folded.size > FOLDED_CACHE_SIZE) folded.delete(folded.keys().next().value as string);
  return term;
}

/** The term folded, or undefined for no term (absent or empty: no filter). */
export async function foldOptional(db: Db, raw: string | undefined): Promise<SearchTerm | undefined> {
  return raw ? foldTerm(db, raw) : undefined;
}

/**
 * Whether compact text (`search_compact`: folded, without spaces) holds every word of the term,
 * in any order: each word is one LIKE, which a trigram index on the compact text serves.
 * `raw`: the plain texts a term without words is looked for in (case-insensitive substring).
 */
export function matchesTerm(
  compact: Expression<string | null>,
  term: SearchTerm,
  raw: readonly Expression<string | null>[],
): RawBuilder<boolean> {
  if (term.words.length === 0) {
    const pattern = likeContains(term.raw);
    return sql<boolean>`(${sql.join(
      raw.map((text) => sql`${text} ilike ${pattern}`),
      sql` or `,
    )})`;
  }
  return matchesSpellings(compact, spellingsOf(term));
}

/**
 * The spellings a term's runs may be matched with: each run's alternatives (itself first). A
 * strict search has one per run (`spellingsOf`); with typos, a word's alternatives are the
 * vocabulary's words within its allowance (`finder-bounds.ts`).
 */
export type Spellings = readonly (readonly string[])[];

/** The term's runs, each spelled only as typed. */
export const spellingsOf = (term: SearchTerm): Spellings => searchedRuns(term).map((run) => [run]);

/** Every run holding one of its spellings, each checked by `holds`. */
function holdingEachRun(
  spellings: Spellings,
  holds: (spelling: string) => RawBuilder<boolean>,
): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(
    spellings.map((alternatives) => sql`(${sql.join(alternatives.map(holds), sql` or `)})`),
    sql` and `,
  )})`;
}

const contains = (compact: Expression<string | null>, spelling: string) =>
  sql<boolean>`strpos(${compact}, ${spelling}) > 0`;

/**
 * Compact text holding, for every run, one of its spellings, where an index should find them: a
 * trigram-indexable LIKE for a spelling of three characters or more, a plain `strpos` for a
 * shorter one. A trigram index holds nothing to look up for "ac" or "東京", and offered a LIKE of
 * one it reads itself whole (every entry, then every row rechecked: seconds at a million songs,
 * where scanning the table finds the first thousand matches of a common pair in milliseconds);
 * `strpos` keeps such a run out of the index, a check on the rows the other runs (or a scan) find.
 */
export function matchesSpellings(
  compact: Expression<string | null>,
  spellings: Spellings,
): RawBuilder<boolean> {
  const distinct = spellings.map((alternatives) => [...new Set(alternatives)]);
  return holdingEachRun(distinct, (spelling) =>
    Array.from(spelling).length >= 3
      ? sql<boolean>`${compact} like ${likeContains(spelling)}`
      : contains(compact, spelling),
  );
}

/**
 * The same check on rows already found (by primary key), where no index is wanted: `strpos` for
 * every spelling, so the statement's text depends on how many spellings there are, not on their
 * lengths. The finder keeps one plan per text (`finderTransaction`), and each new text is
 * planned afresh on every connection.
 */
export function holdsSpellings(
  compact: Expression<string | null>,
  spellings: Spellings,
): RawBuilder<boolean> {
  return holdingEachRun(spellings, (spelling) => contains(compact, spelling));
}

/**
 * The runs of characters a term's matches must hold: each word, in any order; but a term made
 * only of words of one or two characters ("ac/dc", "a-ha", "u 2") is one run, its words run
 * together ("acdc"). Single letters found anywhere, apart, would match almost everything, and
 * a run of three or more is what a trigram index can find; what such a term found before folding
 * (the text itself, in one piece) is still found.
 */
export function searchedRuns(term: SearchTerm): string[] {
  return term.words.length > 1 && term.words.every((word) => word.length < 3)
    ? [term.words.join('')]
    : term.words;
}

/**
 * A name's relevance tier for the term (lower first): 0 the name is the term, 1 it starts with
 * it, 2 one of its words starts with it, 3 anything else that matched. `key` is the folded name
 * (`search_fold`); spacing does not count ("acdc" is "AC/DC" exactly).
 */
export function relevanceTier(key: Expression<string | null>, term: SearchTerm): RawBuilder<number> {
  if (term.words.length === 0) return sql<number>`3`;
  const compact = term.words.join('');
  const prefix = likePrefix(term.key);
  return sql<number>`(case
    when ${key} = ${term.key} or replace(${key}, ' ', '') = ${compact} then 0
    when ${key} like ${prefix} or replace(${key}, ' ', '') like ${likePrefix(compact)} then 1
    when ' ' || ${key} like ${`% ${prefix}`} then 2
    else 3 end)`;
}
