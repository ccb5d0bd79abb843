import { z } from 'zod';
import { dateTime, toIso } from '../../schemas';

/** Every stored record's timestamps as the contract shows them: the last two fields of each record. */
export const timestamps = { createdAt: dateTime, updatedAt: dateTime };

export function timestampsOf(row: { created_at: Date; updated_at: Date }) {
  return { createdAt: toIso(row.created_at), updatedAt: toIso(row.updated_at) };
}

/**
 * A stored record's output schema, named `id` in the document: its uuid first, then its own
 * fields, then the timestamps, the order every record shows its properties in.
 */
export function recordSchema<Fields extends z.ZodRawShape>(id: string, fields: Fields) {
  return z.object({ id: z.uuid(), ...fields, ...timestamps }).meta({ id });
}

/** A row as its record: the same order as `recordSchema`, the row's own fields mapped by the caller. */
export function recordOf<Fields extends object>(
  row: { id: string; created_at: Date; updated_at: Date },
  fields: Fields,
) {
  return { id: row.id, ...fields, ...timestampsOf(row) };
}
