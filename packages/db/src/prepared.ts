import { createHash } from 'node:crypto';

/** What the driver needs to know of a query text, worked out once per distinct text. */
export interface Statement {
  /** A stable prepared-statement name. */
  name: string;
  /** Whether it may change data (and so commit with a WAL flush). */
  mayWrite: boolean;
}

/**
 * Parameters are never in the text, so only keywords match; a false positive (a `for update`
 * read) only costs a pool checkout.
 */
const MAY_WRITE = /\b(insert|update|delete|merge)\b/i;
export const mayWrite = (sql: string): boolean => MAY_WRITE.test(sql);

const statements = new Map<string, Statement>();

/**
 * Kysely always sends parameters separately, so the set of distinct texts stays small; the
 * cache is bounded anyway. Every statement of every request passes here: the name's hash and the
 * keyword scan are paid once per text, not per execution.
 */
export function statementFor(text: string): Statement {
  let statement = statements.get(text);
  if (!statement) {
    statement = {
      name: `k${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`,
      mayWrite: mayWrite(text),
    };
    if (statements.size >= 5_000) statements.clear();
    statements.set(text, statement);
  }
  return statement;
}
