/**
 * A hook around every statement the drivers run for the API's requests: tracing (the API's
 * runtime/tracing.ts) sets one to put a span around each statement. It lives here, in our own
 * drivers, rather than in a library that patches `pg` as it loads, so that one hook covers both
 * databases (a PostgreSQL server through pg-driver.ts, the embedded PGlite through
 * pglite-dialect.ts) and works the same whether the API runs from source or from its bundle.
 * Unset (the default), a statement costs one check of this variable and nothing else.
 */
export type StatementObserver = <T>(
  text: string,
  database: 'server' | 'embedded',
  run: () => Promise<T>,
) => Promise<T>;

export let statementObserver: StatementObserver | undefined;

/** One observer for the process (tracing is per process); `undefined` removes it. */
export function observeStatements(observer: StatementObserver | undefined): void {
  statementObserver = observer;
}
