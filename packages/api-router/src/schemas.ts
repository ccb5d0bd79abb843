import { z } from 'zod';

/**
 * Path ids are taken as plain strings and checked by the service: a malformed id answers 404
 * (or 403 where the contract says so) only after the body has been validated.
 */
export function idParam(what: string) {
  // No length limit here: an over-long id is just another id that names nothing (404), not a
  // validation failure (the server's header size limit bounds it anyway).
  // Lower-cased on the way in: UUIDs are case-insensitive (RFC 9562) and stored lower-case.
  return z
    .string()
    .toLowerCase()
    .meta({ description: `The ${what}'s id (UUID, any letter case)`, format: 'uuid' });
}

/** A UUID in a body or query field: any letter case accepted, lower-cased on the way in. */
export function uuidField() {
  return z.uuid().toLowerCase();
}

/**
 * `page`, one schema for every list (the document shares it as one parameter): optional, so a
 * list that also pages by cursor can tell `page` given from `page` left out; 1 when omitted.
 */
const pageParam = z.number().int().min(1).optional().meta({
  description: 'Page number, from 1 (default 1). Not with `cursor`.',
  example: 1,
});

export const pageQuery = {
  page: pageParam,
  limit: z.number().int().min(1).max(100).default(20).meta({ description: 'Items per page, 1 to 100' }),
};

// One instance shared by every list: the document generator refuses two schemas with one id.
// Its bounds are the input's (page, limit) and the database's (total is counted as int4), so the
// document promises clients exactly what they can get: `limit` and `total` fit an int32.
const paginationSchema = z
  .object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1).max(100),
    total: z.number().int().min(0).max(2_147_483_647).meta({ description: 'Number of all matching items' }),
  })
  .meta({ id: 'Pagination' });

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item).max(100), pagination: paginationSchema });
}

/**
 * The query of a list that pages by number or by cursor: `page` (from 1; 1 when neither is
 * given) or `cursor` (empty for the first page, then a page's `nextCursor`), never both.
 */
export const listQuery = {
  page: pageParam,
  limit: pageQuery.limit,
  cursor: z
    .string()
    .max(8000)
    .optional()
    .meta({
      description:
        'Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. ' +
        'Pages stay exact while rows are added or removed (none skipped or repeated); no `total` ' +
        'is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`.',
    }),
};

const cursorPaginationSchema = z
  .object({
    limit: z.number().int().min(1).max(100),
    nextCursor: z
      .string()
      .max(8000)
      .nullable()
      .meta({ description: 'The next page’s `cursor`; null on the last page' }),
  })
  .meta({ id: 'CursorPagination', description: 'The paging of a list read with `cursor`' });

/**
 * A list answer that pages by number (`pagination: { page, limit, total }`, as every list
 * answered before cursors existed) or, when `cursor` was sent, by cursor
 * (`pagination: { limit, nextCursor }`): one envelope, so a client that never sends `cursor`
 * reads exactly what it did.
 */
export function cursorListOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item).max(100),
    pagination: z.union([paginationSchema, cursorPaginationSchema]),
  });
}

/**
 * A list answer's paging as page mode has it (`page`, `limit`, `total`): what every list answers
 * to a request without `cursor`. Narrows the type for clients that never send one.
 */
export function pageMode<P extends { limit: number }>(pagination: P): Extract<P, { total: number }> {
  if (!('total' in pagination)) throw new Error('A page-mode answer was expected: the request sent a cursor');
  return pagination as Extract<P, { total: number }>;
}

export function pageWindow(input: { page?: number | undefined; limit: number }) {
  return { limit: input.limit, offset: ((input.page ?? 1) - 1) * input.limit };
}

export const dateTime = z.string().meta({ format: 'date-time', example: '2026-11-22T12:00:00Z' });

/** `YYYY-MM-DDThh:mm:ssZ`, UTC, no milliseconds: the contract's one date format. */
export function toIso(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export const emptyOutput = z.void();

// Control characters are refused in text fields: NUL cannot be stored by PostgreSQL at all
// (it would surface as a 500), and the others (C0, DEL and C1, U+0080-U+009F, where U+0085 is a
// line break and U+009B a terminal's escape) have no business in names and titles.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, but tab and newlines are fine.
const CONTROL_BUT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const WELL_FORMED = 'Must be well-formed Unicode (no lone surrogates)';

/**
 * Single-line text: trimmed, stored in Unicode NFC (so composed and decomposed input are one
 * string, for storage and for search), no lone surrogates, no control characters.
 */
export function text(min: number, max: number) {
  return z
    .string()
    .trim()
    .normalize('NFC')
    .min(min)
    .max(max)
    .refine((value) => !LONE_SURROGATE.test(value), WELL_FORMED)
    .refine((value) => !CONTROL.test(value), 'Must not contain control characters');
}

/** Multi-line text: NFC as above; newlines and tabs allowed, other control characters not. */
export function longText(max: number) {
  return z
    .string()
    .normalize('NFC')
    .max(max)
    .refine((value) => !LONE_SURROGATE.test(value), WELL_FORMED)
    .refine((value) => !CONTROL_BUT_WHITESPACE.test(value), 'Must not contain control characters');
}

/** At most 5 items of a list, and how many more there are. */
function listed(items: readonly string[]): string {
  const shown = items.slice(0, 5).join(', ');
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}

/** `sort=relevance`: a search's matches, best first (lists that rank a search take it). */
export const RELEVANCE = 'relevance';

/**
 * A list input's check that `sort=relevance` comes with a `search` (there is nothing to rank
 * without one): a 400 on `sort`, as any other unusable sort.
 */
export function relevanceNeedsSearch(
  input: { sort?: string | undefined; search?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (input.sort === RELEVANCE && !input.search) {
    ctx.addIssue({
      code: 'custom',
      path: ['sort'],
      message: '`relevance` ranks the matches of a search: give `search` too',
    });
  }
}

/** One key of a `sort` parameter: the field and its direction. */
export interface SortKey<Field extends string> {
  field: Field;
  descending: boolean;
}

/**
 * The `sort` query parameter of a list: comma-separated fields, `-` for descending, each at
 * most once. An unknown or repeated field fails validation (a 400 on a query string).
 * Ties are broken by id by the repositories.
 */
export function sortQuery<const Fields extends readonly [string, ...string[]]>(
  fields: Fields,
  options: { relevance?: boolean } = {},
) {
  const allowed = new Set<string>(fields);
  return z
    .string()
    .max(200)
    .superRefine((value, ctx) => {
      if (options.relevance && value === RELEVANCE) return;
      if (options.relevance && value.split(',').some((part) => part.replace(/^-/, '') === RELEVANCE)) {
        ctx.addIssue({ code: 'custom', message: '`relevance` is an order of its own: give it alone' });
        return;
      }
      // One issue per kind of problem, however many fields have it: the message stays short.
      const seen = new Set<string>();
      const unknown: string[] = [];
      const repeated: string[] = [];
      for (const part of value.split(',')) {
        const field = part.startsWith('-') ? part.slice(1) : part;
        if (!allowed.has(field)) unknown.push(`'${part}'`);
        else if (seen.has(field)) repeated.push(`'${field}'`);
        seen.add(field);
      }
      if (unknown.length > 0) {
        const named = unknown.length === 1 ? 'field' : 'fields';
        ctx.addIssue({
          code: 'custom',
          message: `Unknown sort ${named} ${listed(unknown)} (one of: ${fields.join(', ')})`,
        });
      }
      if (repeated.length > 0)
        ctx.addIssue({ code: 'custom', message: `Sort fields given twice: ${listed(repeated)}` });
    })
    .optional()
    .meta({
      description: `Comma-separated fields to order by, \`-\` for descending: ${fields.join(', ')}. Ties are broken by id.`,
      example: `-${fields.at(-1)},${fields[0]}`,
    });
}

// One instance for every id list: building a UUID schema per entry would cost a clone each.
const UUID = z.uuid();

/**
 * A query parameter naming records by id: comma-separated UUIDs, 1 to `max` of them, in any
 * letter case. Lower-cased and with duplicates removed on the way in, so a service reads a
 * canonical list (`idList`). An empty entry, a malformed id or more than `max` entries fail
 * validation (a 400 on a query string); the first problem is reported, not one per entry.
 */
export function idListQuery(what: string, max: number) {
  const tooMany = `At most ${max} ids`;
  return (
    z
      .string()
      // The longest valid list (36 characters an id, a comma between): a longer one is refused
      // before it is split, and the document shows the bound.
      .max(max * 37 - 1, { message: tooMany, abort: true })
      .toLowerCase()
      .superRefine((value, ctx) => {
        const parts = value.split(',');
        if (parts.length > max) {
          ctx.addIssue({ code: 'custom', message: `${tooMany} (got ${parts.length})` });
          return;
        }
        const bad = parts.find((part) => !UUID.safeParse(part).success);
        if (bad !== undefined) {
          const shown = bad.length > 40 ? `${bad.slice(0, 40)}…` : bad;
          ctx.addIssue({
            code: 'custom',
            message: bad === '' ? 'An entry is empty' : `Not a UUID: '${shown}'`,
          });
        }
      })
      .overwrite((value) => [...new Set(value.split(','))].join(','))
      .optional()
      .meta({
        description:
          `Only these ${what}s: 1 to ${max} comma-separated ids (UUIDs, any letter case; duplicates ` +
          'are ignored). Ids that name nothing are simply absent from the answer.',
        example: '01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02,01970a3e-8a53-7d2a-9b7c-6f4e3d2c1b0a',
      })
  );
}

/**
 * A list operation's `ids` filter: an `idListQuery` whose description says what an id naming
 * nothing does there and which page of other records it resolves in one call.
 */
export function idsFilter(what: string, max: number, words: { absent: string; resolves: string }) {
  return idListQuery(what, max).meta({
    description:
      `Only these ${what}s: 1 to ${max} comma-separated ids (UUIDs, any letter case; ` +
      `duplicates are ignored); ${words.absent} Resolves ${words.resolves} in one call: pass ` +
      `\`limit=${max}\` to get them all on one page.`,
  });
}

/** A validated id-list parameter as its ids (undefined when it was not given). */
export function idList(ids: string | undefined): string[] | undefined {
  return ids === undefined ? undefined : ids.split(',');
}

/** A validated `sort` parameter as keys (none when it was not given). */
export function sortKeys<Field extends string>(sort: string | undefined): SortKey<Field>[] {
  if (!sort) return [];
  return sort.split(',').map((part) => ({
    field: (part.startsWith('-') ? part.slice(1) : part) as Field,
    descending: part.startsWith('-'),
  }));
}
