import { z } from 'zod';

/**
 * Path ids are taken as plain strings and checked by the service: a malformed id answers 404
 * (or 403 where the contract says so) only after the body has been validated.
 */
export function idParam(what: string) {
  // No length limit here: an over-long id is just another id that names nothing (404), not a
  // validation failure (the server's header size limit bounds it anyway).
  return z.string().meta({ description: `The ${what}'s id (UUID)`, format: 'uuid' });
}

export const pageQuery = {
  page: z.number().int().min(1).default(1).meta({ description: 'Page number, from 1' }),
  limit: z.number().int().min(1).max(100).default(20).meta({ description: 'Items per page, 1 to 100' }),
};

// One instance shared by every list: the document generator refuses two schemas with one id.
const paginationSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().meta({ description: 'Number of all matching items' }),
  })
  .meta({ id: 'Pagination' });

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item).max(100), pagination: paginationSchema });
}

export function pageWindow(input: { page: number; limit: number }) {
  return { limit: input.limit, offset: (input.page - 1) * input.limit };
}

export const dateTime = z.string().meta({ format: 'date-time', example: '2026-11-22T12:00:00Z' });

/** `YYYY-MM-DDThh:mm:ssZ`, UTC, no milliseconds: the contract's one date format. */
export function toIso(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export const emptyOutput = z.void();

// Control characters are refused in text fields: NUL cannot be stored by PostgreSQL at all
// (it would surface as a 500), and the others have no business in names and titles.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, but tab and newlines are fine.
const CONTROL_BUT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Single-line text: trimmed, no control characters. */
export function text(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((value) => !CONTROL.test(value), 'Must not contain control characters');
}

/** Multi-line text: newlines and tabs allowed, other control characters not. */
export function longText(max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => !CONTROL_BUT_WHITESPACE.test(value), 'Must not contain control characters');
}
