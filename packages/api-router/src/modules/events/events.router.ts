import { CHANGE_TYPES } from '../../changes';
import { authedProcedure, rest, router } from '../../trpc';
import { changeEventPageSchema, listChangeEventsInput } from './events.schema';
import * as events from './events.service';

export const eventsRouter = router({
  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/events',
        tag: 'events',
        summary: 'The change feed: every change to the catalogue, in commit order',
        description:
          'Each committed write adds its events, in its own transaction: a refused or failed ' +
          'write, or one that changed nothing, adds none. Types: ' +
          `${CHANGE_TYPES.map((t) => `\`${t}\``).join(', ')}. ` +
          'Read on by passing `nextCursor` as `after`.',
        errors: ['GONE', 'VALIDATION_FAILED'],
      }),
    )
    .input(listChangeEventsInput)
    .output(changeEventPageSchema)
    .query(({ ctx, input }) => events.listChangeEvents(ctx, input)),
});
