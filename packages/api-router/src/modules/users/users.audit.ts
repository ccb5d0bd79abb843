import type { Db, UserRow } from '@music/db';
import { AUDITED_FIELDS, type AuditChanges, changesOf, PASSWORD_CHANGED, recordAudit } from '../../audit';
import type { Context } from '../../context';
import { toUser, type User } from './users.schema';

/**
 * Records the change of an account a write made (nothing when it changed nothing), named by the
 * narrowest action: only the role, only the password, or anything else.
 */
export async function auditUserWrite(
  trx: Db,
  ctx: Context,
  before: UserRow,
  after: User,
  passwordChanged: boolean,
) {
  const changes: AuditChanges = changesOf(toUser(before), after, AUDITED_FIELDS.user);
  if (passwordChanged) changes.password = PASSWORD_CHANGED;
  const fields = Object.keys(changes);
  if (fields.length === 0) return;
  const only = fields.length === 1 ? fields[0] : undefined;
  const action =
    only === 'role' ? 'user.role_changed' : only === 'password' ? 'user.password_changed' : 'user.updated';
  await recordAudit(trx, ctx, { action, target: { type: 'user', id: before.id }, changes, record: after });
}
