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
/** Moved on by every renewal, so a renewed statement's name was never prepared anywhere. */
let renewals = 0;

const nameOf = (text: string, renewal: number) =>
  `k${createHash('sha1').update(text).digest('base64url').slice(0, 20)}${renewal ? `_${renewal}` : ''}`;

/**
 * Kysely always sends parameters separately, so the set of distinct texts stays small; the
 * cache is bounded anyway. Every statement of every request passes here: the name's hash and the
 * keyword scan are paid once per text, not per execution.
 */
export function statementFor(text: string): Statement {
  let statement = statements.get(text);
  if (!statement) {
    statement = {
      name: nameOf(text, 0),
      mayWrite: mayWrite(text),
    };
    if (statements.size >= 5_000) statements.clear();
    statements.set(text, statement);
  }
  return statement;
}

/**
 * A new name for a statement whose prepared plan the server refuses to reuse (see isStalePlan):
 * every connection prepares it afresh under that name. The old one stays on each connection
 * that had it until the connection closes (one per statement per schema change).
 */
export function renewStatement(text: string): Statement {
  const statement = { name: nameOf(text, ++renewals), mayWrite: mayWrite(text) };
  statements.set(text, statement);
  return statement;
}

/**
 * "cached plan must not change result type" (0A000): a prepared statement whose result columns
 * changed under it, e.g. `returning *` after a column was added. Raised before execution.
 */
export function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change');
}
