import { isDeepStrictEqual } from 'node:util';
import { Mismatch } from './documented';

/**
 * The scenario is a list of steps, each printing one line. A failing step does not stop the
 * run: the steps that need its result are skipped (and said so), the others still run, so one
 * run shows everything that does not match. Any failure or skip makes the exit status 1.
 */

/** The results of earlier steps a step needs, each known to be there. */
type Present<N extends readonly unknown[]> = { [K in keyof N]: NonNullable<N[K]> };

function allPresent<N extends readonly unknown[]>(values: N): values is Present<N> & N {
  return values.every((value) => value !== undefined && value !== null);
}

export class Scenario {
  #passed = 0;
  #failed = 0;
  #skipped = 0;

  /**
   * Runs `run` with the results of the earlier steps it `needs` (skipped when one of them
   * failed) and prints `ok`, `FAIL` or `skip` with the step's name and one line of detail.
   */
  async step<T, N extends readonly unknown[]>(
    name: string,
    needs: [...N],
    run: (needs: Present<N>, say: (detail: string) => void) => Promise<T>,
  ): Promise<T | undefined> {
    if (!allPresent(needs)) {
      this.#skipped++;
      console.log(`skip  ${name}: an earlier step it needs failed`);
      return undefined;
    }
    let detail = '';
    try {
      const result = await run(needs, (text) => {
        detail = text;
      });
      this.#passed++;
      console.log(`ok    ${name}${detail ? `: ${detail}` : ''}`);
      return result;
    } catch (error) {
      this.#failed++;
      const why = error instanceof Mismatch ? error.message : `unexpected error: ${describe(error)}`;
      console.log(`FAIL  ${name}: ${why}`);
      return undefined;
    }
  }

  /** Prints the tally; the exit status: 0 only when every step passed. */
  finish(): number {
    console.log(`\n${this.#passed} passed, ${this.#failed} failed, ${this.#skipped} skipped`);
    return this.#failed + this.#skipped === 0 ? 0 : 1;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** A promise of the contract that must hold. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Mismatch(message);
}

/** `actual` deep-equals `expected`, or a Mismatch naming `what` and both values. */
export function equal<T>(actual: T, expected: T, what: string): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new Mismatch(`${what} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The API's formats: ids are lower-case UUIDs, dates UTC without milliseconds. */
export function checkRecord(
  record: { id: string; createdAt: string; updatedAt: string },
  what: string,
): void {
  check(UUID.test(record.id), `${what}.id ${JSON.stringify(record.id)} is not a lower-case UUID`);
  for (const field of ['createdAt', 'updatedAt'] as const) {
    check(DATE_TIME.test(record[field]), `${what}.${field} ${record[field]} is not YYYY-MM-DDThh:mm:ssZ`);
  }
}
