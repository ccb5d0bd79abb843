import { randomBytes } from 'node:crypto';
import {
  changeEvents,
  type Db,
  isForeignKeyViolation,
  users,
  uuidv7,
  webhookDeliveries,
  webhooks,
} from '@music/db';
import { AUDITED_FIELDS, changesOf, recordAudit } from '../../audit';
import { typesNamed, unknownTypeMessage } from '../../changes';
import { queryFieldError } from '../../cursor';
import { AppError, validationError } from '../../errors';
import { type AuthedContext, assertPrecondition, isAdmin, listPage, loadOr404 } from '../../kernel';
import { eventBody } from './dispatch';
import { checkWebhookUrl } from './url-policy';
import {
  type CreateWebhookInput,
  type Delivery,
  type ListDeliveriesInput,
  type ListWebhooksInput,
  MAX_WEBHOOKS_PER_USER,
  toDelivery,
  toWebhook,
  type UpdateWebhookInput,
  type Webhook,
  webhookSchema,
} from './webhooks.schema';

/**
 * Webhooks: your own (an admin reads and changes anyone's; someone else's is a 404 to a
 * non-admin). Each is sent the events of its types that its owner may read at the moment of
 * dispatch (see ./dispatch.ts).
 */

/** A URL the policy allows, or a 422 on `url`. */
async function checkedUrl(ctx: AuthedContext, raw: string): Promise<string> {
  const checked = await checkWebhookUrl(raw, ctx.settings.webhookUrlPolicy);
  if ('refusal' in checked) throw validationError([{ field: 'url', message: checked.refusal }]);
  // Written out (percent-encoded, the host in punycode), a URL can grow: the stored one is bounded too.
  if (checked.url.href.length > 2000) {
    throw validationError([{ field: 'url', message: 'At most 2000 characters, written out' }]);
  }
  return checked.url.href;
}

/** Known types only; `user.*` only for a webhook whose owner is an admin. A 422 on `events` otherwise. */
function checkedEvents(events: readonly string[], ownerIsAdmin: boolean): string[] {
  const named = typesNamed(events);
  if ('unknown' in named)
    throw validationError([{ field: 'events', message: unknownTypeMessage(named.unknown) }]);
  if (!ownerIsAdmin && named.types.some((type) => type.startsWith('user.'))) {
    throw validationError([{ field: 'events', message: 'Only admins may be sent user events' }]);
  }
  return [...events];
}

/** A secret as Standard Webhooks write one: `whsec_` and 24 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export async function createWebhook(
  ctx: AuthedContext,
  input: CreateWebhookInput,
): Promise<Webhook & { secret: string }> {
  const events = checkedEvents(input.events, isAdmin(ctx.actor));
  const url = await checkedUrl(ctx, input.url);
  const userId = ctx.actor.user.id;
  if ((await webhooks.countWebhooks(ctx.db, userId)) >= MAX_WEBHOOKS_PER_USER) {
    throw new AppError(
      'CONFLICT',
      `You have ${MAX_WEBHOOKS_PER_USER} webhooks; delete one before making another`,
    );
  }
  // The webhook starts at the feed's head: what committed before it is numbered first, so every
  // write answered before this request is before its start, and everything after is sent.
  // The queue's tables are made with the first webhook, here rather than at its first delivery.
  await ctx.deliveries.ready();
  await changeEvents.sequenceChanges(ctx.db, 4);
  const secret = newSecret();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const inserted = await webhooks.insertWebhook(trx, {
      id: uuidv7(),
      userId,
      url,
      events,
      description: input.description ?? null,
      secret,
    });
    await recordAudit(trx, ctx, {
      action: 'webhook.created',
      target: { type: 'webhook', id: inserted.id },
      changes: changesOf(null, audited(inserted), AUDITED_FIELDS.webhook),
    });
    return inserted;
  });
  return { ...toWebhook(row), secret };
}

const OLDEST_FIRST = [{ column: 'created_at', descending: false }] as const;

export async function listWebhooks(ctx: AuthedContext, input: ListWebhooksInput) {
  const userId = input.userId ?? ctx.actor.user.id;
  if (userId !== ctx.actor.user.id) {
    if (!isAdmin(ctx.actor))
      throw new AppError('FORBIDDEN', 'Only an admin may list another user’s webhooks');
    await loadOr404(userId, (id) => users.findUserById(ctx.db, id), 'User');
  }
  return listPage(
    input,
    'webhooks',
    OLDEST_FIRST,
    {
      byOffset: (window) => webhooks.listWebhooks(ctx.db, { userId, ...window }),
      after: (window) => webhooks.listWebhooksAfter(ctx.db, { userId, ...window }),
    },
    toWebhook,
  );
}

/** The webhook, when the caller may see it (their own; an admin: anyone's), or a 404. */
async function loadVisible(ctx: AuthedContext, db: Db, webhookId: string, lock = false) {
  const find = lock ? webhooks.lockWebhook : webhooks.findWebhook;
  const hook = await loadOr404(webhookId, (id) => find(db, id), 'Webhook');
  if (hook.user_id !== ctx.actor.user.id && !isAdmin(ctx.actor))
    throw new AppError('NOT_FOUND', 'Webhook not found');
  return hook;
}

export async function getWebhook(ctx: AuthedContext, webhookId: string): Promise<Webhook> {
  return toWebhook(await loadVisible(ctx, ctx.db, webhookId));
}

export async function updateWebhook(ctx: AuthedContext, input: UpdateWebhookInput): Promise<Webhook> {
  const before = await loadVisible(ctx, ctx.db, input.webhookId);
  // Checked for the webhook's owner: an admin changing someone's webhook cannot give it user events.
  const events =
    input.events === undefined
      ? undefined
      : checkedEvents(input.events, await ownerIsAdmin(ctx, before.user_id));
  const url = input.url === undefined ? undefined : await checkedUrl(ctx, input.url);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await loadVisible(ctx, trx, input.webhookId, true);
    assertPrecondition(ctx, webhookSchema, toWebhook(current));
    const changes = {
      ...(url !== undefined && url !== current.url ? { url } : {}),
      ...(events !== undefined && JSON.stringify(events) !== JSON.stringify(current.events)
        ? { events }
        : {}),
      ...(input.description !== undefined && input.description !== current.description
        ? { description: input.description }
        : {}),
      ...(input.enabled !== undefined && input.enabled !== current.enabled ? { enabled: input.enabled } : {}),
    };
    if (Object.keys(changes).length === 0) return toWebhook(current);
    const after = await webhooks.updateWebhook(trx, current.id, changes);
    if (!after) throw new AppError('NOT_FOUND', 'Webhook not found');
    await recordAudit(trx, ctx, {
      action: 'webhook.updated',
      target: { type: 'webhook', id: current.id },
      changes: changesOf(audited(current), audited(after), AUDITED_FIELDS.webhook),
    });
    return toWebhook(after);
  });
}

/** Whether the webhook's owner is an admin now: their role decides which events they may be sent. */
async function ownerIsAdmin(ctx: AuthedContext, userId: string): Promise<boolean> {
  if (userId === ctx.actor.user.id) return isAdmin(ctx.actor);
  return (await users.findUserById(ctx.db, userId))?.role === 'admin';
}

export async function deleteWebhook(ctx: AuthedContext, webhookId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const hook = await loadVisible(ctx, trx, webhookId, true);
    assertPrecondition(ctx, webhookSchema, toWebhook(hook));
    await webhooks.deleteWebhook(trx, hook.id);
    await recordAudit(trx, ctx, {
      action: 'webhook.deleted',
      target: { type: 'webhook', id: hook.id },
      changes: changesOf(audited(hook), null, AUDITED_FIELDS.webhook),
    });
  });
}

/** Deliveries are paged by id (UUIDv7: newest first); the cursor is base64url of `deliveries.<id>`. */
const encodeCursor = (id: string) => Buffer.from(`deliveries.${id}`).toString('base64url');
function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const match = /^deliveries\.([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match?.[1];
}

export async function listDeliveries(
  ctx: AuthedContext,
  input: ListDeliveriesInput,
): Promise<{ data: Delivery[]; nextCursor: string | null }> {
  const before = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  if (input.cursor !== undefined && before === undefined)
    throw queryFieldError('cursor', 'Not a cursor this list gave out');
  const hook = await loadVisible(ctx, ctx.db, input.webhookId);
  const rows = await webhookDeliveries.listDeliveries(ctx.db, {
    webhookId: hook.id,
    before,
    limit: input.limit,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map(toDelivery),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.id) : null,
  };
}

/**
 * Sends a delivery again now, once, with the same body and `webhook-id` (a receiver that already
 * has it deduplicates). One still pending is being delivered already: 409.
 */
export async function retryDelivery(
  ctx: AuthedContext,
  input: { webhookId: string; deliveryId: string },
): Promise<Delivery> {
  const hook = await loadVisible(ctx, ctx.db, input.webhookId);
  const found = await loadOr404(
    input.deliveryId,
    (id) => webhookDeliveries.findDelivery(ctx.db, id),
    'Delivery',
  );
  if (found.webhook_id !== hook.id) throw new AppError('NOT_FOUND', 'Delivery not found');
  if (found.status === 'pending') {
    throw new AppError('CONFLICT', 'This delivery is still pending: its next attempt is already due');
  }
  await ctx.deliveries.ready();
  return ctx.db.transaction().execute(async (trx) => {
    const row = await webhookDeliveries.resendDelivery(trx, found.id);
    if (!row) throw new AppError('NOT_FOUND', 'Delivery not found');
    await ctx.deliveries.enqueue(trx, [{ deliveryId: row.id, attempt: row.attempts + 1, wait: -1 }]);
    return toDelivery(row);
  });
}

/** A test ping: a delivery of its own (`webhook.ping`), sent now, even to a disabled webhook. */
export async function pingWebhook(ctx: AuthedContext, webhookId: string): Promise<Delivery> {
  const hook = await loadVisible(ctx, ctx.db, webhookId);
  await ctx.deliveries.ready();
  const made = ctx.db.transaction().execute(async (trx) => {
    const eventId = uuidv7();
    const [id] = await webhookDeliveries.insertDeliveries(trx, [
      {
        id: uuidv7(),
        webhookId: hook.id,
        eventId,
        eventType: 'webhook.ping',
        payload: eventBody({
          id: eventId,
          type: 'webhook.ping',
          at: new Date(),
          resource_type: 'webhook',
          resource_id: hook.id,
          data: { webhookId: hook.id, url: hook.url },
        }),
      },
    ]);
    if (!id) throw new Error('a ping delivery was not inserted');
    await ctx.deliveries.enqueue(trx, [{ deliveryId: id, attempt: 1, wait: -1 }]);
    const row = await webhookDeliveries.findDelivery(trx, id);
    if (!row) throw new Error('a ping delivery vanished');
    return toDelivery(row);
  });
  return notFoundIfGone(made);
}

/** A webhook deleted while a delivery of it was being made: 404, as if it had gone first. */
async function notFoundIfGone<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError('NOT_FOUND', 'Webhook not found');
    throw error;
  }
}

/** A webhook as its audit events name its fields (never its secret). */
function audited(row: webhooks.WebhookRecord) {
  const { userId, url, events, description, enabled } = toWebhook(row);
  return { userId, url, events, description, enabled };
}
