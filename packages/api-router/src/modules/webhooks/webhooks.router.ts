import { emptyOutput } from '../../schemas';
import { authedProcedure, rest, router } from '../../trpc';
import {
  createdWebhookSchema,
  createWebhookInput,
  deliveryIdInput,
  deliveryPageSchema,
  deliverySchema,
  listDeliveriesInput,
  listWebhooksInput,
  updateWebhookInput,
  webhookIdInput,
  webhookListSchema,
  webhookSchema,
} from './webhooks.schema';
import * as hooks from './webhooks.service';

// Every webhook operation, reads included, takes `webhooks:write` from an API key.
const KEY = 'webhooks:write' as const;

export const webhooksRouter = router({
  create: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/webhooks',
        tag: 'webhooks',
        summary:
          'Make a webhook: events of the types asked for are POSTed to its URL (its secret is shown this once)',
        description:
          'Each event is sent as JSON, the change feed’s representation of it, signed as Standard ' +
          'Webhooks say (`webhook-id`, `webhook-timestamp`, `webhook-signature`). It is sent the ' +
          'events its owner may read, from its creation on. At most 25 webhooks an account (409 beyond).',
        status: 201,
        errors: ['CONFLICT'],
        keyAccess: KEY,
        // A replayed answer would have to keep the secret: it is shown once.
        traits: { idempotent: false },
      }),
    )
    .input(createWebhookInput)
    .output(createdWebhookSchema)
    .mutation(({ ctx, input }) => hooks.createWebhook(ctx, input)),

  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/webhooks',
        tag: 'webhooks',
        summary: 'Your webhooks, oldest first (admins: anyone’s, with `userId`)',
        errors: ['FORBIDDEN', 'NOT_FOUND'],
        keyAccess: KEY,
      }),
    )
    .input(listWebhooksInput)
    .output(webhookListSchema)
    .query(({ ctx, input }) => hooks.listWebhooks(ctx, input)),

  get: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/webhooks/{webhookId}',
        tag: 'webhooks',
        summary: 'One of your webhooks (admins: anyone’s)',
        keyAccess: KEY,
      }),
    )
    .input(webhookIdInput)
    .output(webhookSchema)
    .query(({ ctx, input }) => hooks.getWebhook(ctx, input.webhookId)),

  update: authedProcedure
    .meta(
      rest({
        method: 'PATCH',
        path: '/webhooks/{webhookId}',
        tag: 'webhooks',
        summary: 'Change a webhook’s URL, types or description; pause it, or enable it again',
        keyAccess: KEY,
      }),
    )
    .input(updateWebhookInput)
    .output(webhookSchema)
    .mutation(({ ctx, input }) => hooks.updateWebhook(ctx, input)),

  delete: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/webhooks/{webhookId}',
        tag: 'webhooks',
        summary: 'Delete a webhook and its deliveries: nothing more is sent',
        status: 204,
        keyAccess: KEY,
      }),
    )
    .input(webhookIdInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => hooks.deleteWebhook(ctx, input.webhookId)),

  deliveries: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/webhooks/{webhookId}/deliveries',
        tag: 'webhooks',
        summary: 'A webhook’s deliveries, newest first: status, attempts, the last answer',
        description: 'Paged by `cursor` (the previous page’s `nextCursor`), not by page number.',
        errors: ['VALIDATION_FAILED'],
        keyAccess: KEY,
      }),
    )
    .input(listDeliveriesInput)
    .output(deliveryPageSchema)
    .query(({ ctx, input }) => hooks.listDeliveries(ctx, input)),

  retryDelivery: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
        tag: 'webhooks',
        summary: 'Send a delivery again, now (same body, same `webhook-id`)',
        description: 'One attempt, made within seconds. A delivery still pending is already being sent: 409.',
        status: 202,
        errors: ['CONFLICT'],
        keyAccess: KEY,
      }),
    )
    .input(deliveryIdInput)
    .output(deliverySchema)
    .mutation(({ ctx, input }) => hooks.retryDelivery(ctx, input)),

  ping: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/webhooks/{webhookId}/ping',
        tag: 'webhooks',
        summary: 'Send a test event (`webhook.ping`) now, to see the URL and the signature work',
        description: 'Sent even to a disabled webhook; it shows among the deliveries.',
        status: 202,
        keyAccess: KEY,
      }),
    )
    .input(webhookIdInput)
    .output(deliverySchema)
    .mutation(({ ctx, input }) => hooks.pingWebhook(ctx, input.webhookId)),
});
