// Why a request class missed its target: the statements its slowest requests run, replayed
// under EXPLAIN (ANALYZE, BUFFERS) on the seeded database, the slowest statements' plans kept.
import { type Db, finder, songs } from '@music/db';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

export type RequestClass = 'search' | 'songs' | 'relevance';

interface Statement {
  sql: string;
  params: readonly unknown[];
}

export interface ExplainedStatement {
  /** Execution time EXPLAIN ANALYZE reported. */
  ms: number;
  sql: string;
  /** The plan's nodes that took a tenth of the time or more, with their conditions and buffers. */
  keyLines: string[];
  plan: string[];
}

export interface Explained {
  q: string;
  statements: ExplainedStatement[];
}

/** How long one statement may run under EXPLAIN ANALYZE before its plan is read without running it. */
const ANALYZE_TIMEOUT_MS = Number(process.env.BENCH_SEARCH_EXPLAIN_TIMEOUT_MS ?? 30_000);

/** What the API runs for one request of the class, through the same repository functions. */
async function runRequest(db: Db, requestClass: RequestClass, q: string, viewerId: string) {
  if (requestClass !== 'search') {
    const sort = requestClass === 'relevance' ? [...songs.BY_RELEVANCE] : [];
    const page = await songs.searchSongIds(db, { search: q, sort, limit: 20, offset: 0 });
    await songs.findSongsWithArtists(db, page.ids);
    return;
  }
  await finder.finderTransaction(db, q, async (trx, term) => {
    await finder.find(trx, term, ['songs', 'artists', 'albums', 'playlists'], 5, viewerId);
  });
}

/** The statements one request runs, in order (transaction control included). */
async function capture(databaseUrl: string, requestClass: RequestClass, q: string, viewerId: string) {
  const statements: Statement[] = [];
  // Bounded like the replay: a statement cancelled here is still captured (the log sees errors too).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, statement_timeout: ANALYZE_TIMEOUT_MS });
  const db = new Kysely({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      statements.push({ sql: event.query.sql, params: event.query.parameters });
    },
  }) as unknown as Db;
  try {
    await runRequest(db, requestClass, q, viewerId);
  } catch {
    // The statements up to the one cancelled are what the replay explains.
  } finally {
    await db.destroy();
  }
  return statements;
}

/** The nodes that cost a tenth of the run or more, each with the detail lines under it. */
function keyLines(plan: string[], totalMs: number): string[] {
  const kept: string[] = [];
  let keepDetail = false;
  for (const line of plan) {
    const node = /actual time=[\d.]+\.\.([\d.]+) rows=\d+ loops=(\d+)/.exec(line);
    if (node) {
      keepDetail = Number(node[1]) * Number(node[2]) >= totalMs / 10;
      if (keepDetail) kept.push(line);
    } else if (keepDetail || /Execution Time|Planning Time/.test(line)) {
      kept.push(line);
    }
  }
  return kept;
}

/**
 * One statement's plan as it ran; a statement that runs longer than `ANALYZE_TIMEOUT_MS` is
 * cancelled and its estimated plan kept instead (its time then reads as at least the timeout).
 */
async function explain(client: pg.Client, s: Statement): Promise<ExplainedStatement> {
  const sqlText = s.sql.replace(/\s+/g, ' ');
  const planOf = (rows: { 'QUERY PLAN': string }[]) => rows.map((r) => r['QUERY PLAN']);
  await client.query('savepoint statement');
  try {
    await client.query(`set local statement_timeout = ${ANALYZE_TIMEOUT_MS}`);
    const plan = planOf((await client.query(`explain (analyze, buffers) ${s.sql}`, [...s.params])).rows);
    const ms = Number(/Execution Time: ([\d.]+)/.exec(plan.at(-1) ?? '')?.[1] ?? 0);
    return { ms, sql: sqlText, keyLines: keyLines(plan, ms), plan };
  } catch (error) {
    await client.query('rollback to savepoint statement');
    const plan = planOf((await client.query(`explain ${s.sql}`, [...s.params])).rows);
    const note = `(cancelled after ${ANALYZE_TIMEOUT_MS} ms: ${(error as Error).message}; the estimated plan)`;
    return { ms: ANALYZE_TIMEOUT_MS, sql: sqlText, keyLines: [note, ...plan.slice(0, 40)], plan };
  }
}

/**
 * Replays each request's statements in one transaction that is rolled back (a `set_config` a
 * statement depends on runs as it is; the rest under EXPLAIN), and keeps its `perRequest`
 * slowest statements.
 */
export async function explainSlowest(
  databaseUrl: string,
  requestClass: RequestClass,
  qs: string[],
  viewerId: string,
  perRequest = 2,
): Promise<Explained[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const explained: Explained[] = [];
  try {
    for (const q of qs) {
      const statements = await capture(databaseUrl, requestClass, q, viewerId);
      const results: ExplainedStatement[] = [];
      await client.query('begin');
      try {
        for (const s of statements) {
          if (/^\s*(begin|start transaction|commit|rollback)\b/i.test(s.sql)) continue;
          if (/^\s*select set_config\(/i.test(s.sql)) {
            await client.query(s.sql, [...s.params]);
            continue;
          }
          results.push(await explain(client, s));
        }
      } finally {
        await client.query('rollback');
      }
      results.sort((a, b) => b.ms - a.ms);
      explained.push({ q, statements: results.slice(0, perRequest) });
    }
  } finally {
    await client.end();
  }
  return explained;
}
