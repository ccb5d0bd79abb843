import { z } from 'zod';
import { CHANGE_RESOURCES, CHANGE_TYPES } from '../../changes';
import { dateTime } from '../../schemas';

export const changeEventSchema = z
  .object({
    id: z.uuid().meta({ description: 'The event’s own id: the same on every read of it' }),
    type: z.enum(CHANGE_TYPES),
    at: dateTime.meta({ description: 'When the write was made, on the database’s clock' }),
    resource: z
      .object({ type: z.enum(CHANGE_RESOURCES), id: z.uuid() })
      .meta({ description: 'The record that changed' }),
    data: z.record(z.string().max(100), z.unknown()).meta({
      description:
        'The record as its own `GET` shows it after the write (for `*.deleted`, as it was just ' +
        'before); `{id, isPublic: false}` only, for a playlist that someone else made private',
    }),
  })
  .meta({ id: 'ChangeEvent' });

export type ChangeEvent = z.infer<typeof changeEventSchema>;

/** The most events one read returns. */
export const MAX_EVENTS_PER_READ = 1000;

export const changeEventPageSchema = z
  .object({
    data: z.array(changeEventSchema).max(MAX_EVENTS_PER_READ),
    nextCursor: z
      .string()
      .max(200)
      .meta({
        description:
          'Pass as `after` to read on; never null. The cursor you sent, back: nothing new yet (ask ' +
          'again later). A new cursor with an empty `data`: the read passed only events you may ' +
          'not see; read on',
      }),
  })
  .meta({ id: 'ChangeEventPage' });

// `after` and `types` are checked by the service: a bad one is a 422 on its field.
export const listChangeEventsInput = z.strictObject({
  after: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'The `nextCursor` of the read before; omitted: from the oldest event kept' }),
  types: z
    .string()
    .max(1000)
    .optional()
    .meta({
      description:
        'Only events of these types, comma-separated; `song.*` stands for every type of songs. ' +
        `Types: ${CHANGE_TYPES.map((t) => `\`${t}\``).join(', ')}`,
    }),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_EVENTS_PER_READ)
    .default(100)
    .meta({ description: `Events per read, 1 to ${MAX_EVENTS_PER_READ}` }),
});
export type ListChangeEventsInput = z.infer<typeof listChangeEventsInput>;
