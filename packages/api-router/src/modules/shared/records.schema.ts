import { dateTime, toIso } from '../../schemas';

/** Every stored record's timestamps as the contract shows them: the last two fields of each record. */
export const timestamps = { createdAt: dateTime, updatedAt: dateTime };

export function timestampsOf(row: { created_at: Date; updated_at: Date }) {
  return { createdAt: toIso(row.created_at), updatedAt: toIso(row.updated_at) };
}
