import { sql } from 'kysely';
import { codeOf } from '../errors';
import { likePrefix } from '../like';
import type { Db } from '../schema';
import type { SearchTerm } from './search-terms';

/**
 * The finder behind `GET /search`: the best few songs, artists, albums and playlists for a term
 * typed so far. Each kind is ranked as `sort=relevance` ranks a list (exact, starts with, a word
 * starts with, other; then popularity, then name, then id), and then come the matches with typos
 * (tier 4): a word of 5 to 8 letters may be one edit away, of 9 or more two.
 *
 * Bounded, so its cost does not grow with the catalogue: it ranks every exact match, the first
 * `PREFIX_CANDIDATES` names starting with the term (in name order, from a b-tree), and up to
 * `OTHER_CANDIDATES` other matches from the trigram index, which is only consulted when a word of
 * the term has three characters or more (shorter words have no trigram: a one- or two-letter term
 * finds names starting with it, which is what someone typing it is after). Typos are looked for
 * only when the strict matches do not fill the answer: among the `TYPO_CANDIDATES` texts most
 * similar to the longest word (pg_trgm's word similarity, at least `typoSimilarity`, on the folded
 * words: a song's title, album and artist names), each then checked word by word
 * (`search_typo_match`), so a typo in a title is forgiven while another word names the artist. A list with
 * `sort=relevance` ranks every match; the finder trades that for a bounded cost.
 */
export const PREFIX_CANDIDATES = 200;
export const OTHER_CANDIDATES = 500;
export const TYPO_CANDIDATES = 200;
/**
 * The least word similarity of a candidate: one edit in a word of 5 to 8 letters keeps at least a
 * third of its trigrams (0.3), two edits in a longer word a fifth (0.2).
 */
export const typoSimilarity = (word: string) => (word.length >= 9 ? '0.2' : '0.3');

export const hasTrigramWord = (term: SearchTerm) => term.words.some((word) => word.length >= 3);

/** The term's longest word: what typo candidates are found by. */
export const longestWord = (term: SearchTerm) =>
  term.words.reduce((a, b) => (b.length > a.length ? b : a), '');

/** `LIKE` pattern: names starting with the folded term. */
export const prefixPattern = (term: SearchTerm) => likePrefix(term.key);

/**
 * How long one typo search may run (ms). At a million songs a word similar to many texts can take
 * seconds to rank; past the budget PostgreSQL cancels it and the answer has no typo matches (the
 * strict ones stand), so a finder request costs at most this much more. (The embedded database
 * has no statement timeout: its catalogues are small.)
 */
export const TYPO_BUDGET_MS = 500;

/**
 * Runs a typo search in a transaction of its own, with the similarity threshold for `word` and the
 * time budget set for that transaction only (so nothing else on the connection sees them, behind a
 * transaction-mode pooler too); a search the budget cancels finds `none`.
 */
export async function withTypoSettings<T>(
  db: Db,
  word: string,
  none: T,
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select set_config('pg_trgm.word_similarity_threshold', ${typoSimilarity(word)}, true),
        set_config('statement_timeout', ${`${TYPO_BUDGET_MS}ms`}, true)`.execute(trx);
      return work(trx);
    });
  } catch (error) {
    if (codeOf(error) === '57014') return none;
    throw error;
  }
}
