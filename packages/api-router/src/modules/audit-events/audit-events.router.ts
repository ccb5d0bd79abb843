import { AUDIT_ACTIONS } from '../../audit';
import { authedProcedure, rest, router } from '../../trpc';
import { auditEventPageSchema, listAuditEventsInput } from './audit-events.schema';
import * as audit from './audit-events.service';

export const auditEventsRouter = router({
  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/audit-events',
        tag: 'audit',
        summary: 'The audit trail: every write, newest first (admin only)',
        description:
          'One event per committed write, recorded in the write’s own transaction: a refused or ' +
          'failed write, or one that changed nothing, records none. Actions: ' +
          `${AUDIT_ACTIONS.map((a) => `\`${a}\``).join(', ')}. ` +
          'Paged by `cursor` (the previous page’s `nextCursor`), not by page number.',
        errors: ['FORBIDDEN', 'VALIDATION_FAILED'],
      }),
    )
    .input(listAuditEventsInput)
    .output(auditEventPageSchema)
    .query(({ ctx, input }) => audit.listAuditEvents(ctx, input)),
});
