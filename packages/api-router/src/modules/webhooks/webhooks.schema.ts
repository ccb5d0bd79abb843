import type { DeliveryRow, webhooks } from '@music/db';
import { z } from 'zod';
import { CHANGE_TYPES } from '../../changes';
import { cursorListOf, dateTime, idParam, listQuery, longText, toIso, uuidField } from '../../schemas';

/** At most this many webhooks an account. */
export const MAX_WEBHOOKS_PER_USER = 25;

const eventsField = z
  .array(z.string().max(100))
  .min(1)
  .max(20)
  .refine((names) => new Set(names).size === names.length, 'Each type at most once')
  .meta({
    description:
      'The event types to send (checked by the service): ' +
      `${CHANGE_TYPES.map((t) => `\`${t}\``).join(', ')}; \`song.*\` stands for every type of songs. ` +
      '`user.*` events are for admins only.',
    example: ['song.*', 'artist.created'],
  });

const urlField = z
  .string()
  .max(2000)
  .meta({
    description:
      'Where events are POSTed: an `https:` URL (`http:` only where the service allows it) whose ' +
      'host resolves to public addresses only (checked by the service, and again at each delivery)',
    example: 'https://hooks.example.com/music',
  });

const descriptionField = longText(500).meta({ description: 'Up to 500 characters: what it is for' });

export const webhookSchema = z
  .object({
    id: z.uuid(),
    userId: z.uuid().meta({ description: 'Whose webhook it is: it is sent what they may read' }),
    url: z.string().max(2000),
    events: z.array(z.string().max(100)).max(20),
    description: z.string().max(500).nullable(),
    enabled: z.boolean().meta({
      description: 'False once paused by its owner, or after too many failed deliveries in a row',
    }),
    failures: z.number().int().min(0).meta({ description: 'Failed delivery attempts in a row' }),
    disabledAt: dateTime.nullable(),
    disabledReason: z
      .string()
      .max(200)
      .nullable()
      .meta({ description: 'Why it is disabled, in words; null while enabled' }),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhookSchema>;

export const createdWebhookSchema = webhookSchema
  .extend({
    secret: z
      .string()
      .max(100)
      .meta({
        description:
          'Signs every delivery (`whsec_…`, as Standard Webhooks write it): shown this once. Verify ' +
          'the `webhook-signature` header with it.',
      }),
  })
  .meta({ id: 'CreatedWebhook' });

export function toWebhook(row: webhooks.WebhookRecord): Webhook {
  return {
    id: row.id,
    userId: row.user_id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    failures: row.failures,
    disabledAt: row.disabled_at ? toIso(row.disabled_at) : null,
    disabledReason: row.disabled_reason,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export const createWebhookInput = z.strictObject({
  url: urlField,
  events: eventsField,
  description: descriptionField.optional(),
});
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const webhookIdInput = z.strictObject({ webhookId: idParam('webhook') });

export const updateWebhookInput = z.strictObject({
  webhookId: idParam('webhook'),
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.nullable().optional(),
  enabled: z.boolean().optional().meta({
    description: '`true` enables it again (its failures in a row start from 0); `false` pauses it',
  }),
});
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const listWebhooksInput = z.strictObject({
  ...listQuery,
  userId: uuidField().optional().meta({ description: 'Whose webhooks (admins only); default: your own' }),
});
export type ListWebhooksInput = z.infer<typeof listWebhooksInput>;

export const webhookListSchema = cursorListOf(webhookSchema);

export const deliverySchema = z
  .object({
    id: z.uuid().meta({
      description: 'Sent as `webhook-id` on every attempt of this delivery: receivers deduplicate by it',
    }),
    eventId: z.uuid().meta({ description: 'The change-feed event sent (a test ping has its own id)' }),
    eventType: z.string().max(100).meta({ description: 'Its type; `webhook.ping` for a test ping' }),
    status: z.enum(['pending', 'succeeded', 'failed']).meta({
      description: '`pending`: an attempt is due or under way; `failed`: every retry failed',
    }),
    attempts: z.number().int().min(0),
    nextAttemptAt: dateTime.nullable().meta({ description: 'When the next attempt is due (pending only)' }),
    lastAttemptAt: dateTime.nullable(),
    responseStatus: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The last attempt’s HTTP status; null when there was no answer' }),
    responseBody: z
      .string()
      .max(4096)
      .nullable()
      .meta({ description: 'The first 1 KiB of the last answer’s body (no more is kept)' }),
    error: z
      .string()
      .max(1000)
      .nullable()
      .meta({ description: 'Why the last attempt got no answer (or was not made)' }),
    durationMs: z.number().int().nullable(),
    createdAt: dateTime,
  })
  .meta({ id: 'WebhookDelivery' });
export type Delivery = z.infer<typeof deliverySchema>;

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' && row.next_attempt_at ? toIso(row.next_attempt_at) : null,
    lastAttemptAt: row.last_attempt_at ? toIso(row.last_attempt_at) : null,
    responseStatus: row.response_status,
    responseBody: row.response_body,
    error: row.error,
    durationMs: row.duration_ms,
    createdAt: toIso(row.created_at),
  };
}

export const listDeliveriesInput = z.strictObject({
  webhookId: idParam('webhook'),
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'The `nextCursor` of the page before; omitted: the newest deliveries' }),
  limit: z.number().int().min(1).max(100).default(20).meta({ description: 'Deliveries per page, 1 to 100' }),
});
export type ListDeliveriesInput = z.infer<typeof listDeliveriesInput>;

export const deliveryPageSchema = z
  .object({
    data: z.array(deliverySchema).max(100),
    nextCursor: z.string().max(200).nullable().meta({
      description: 'Pass as `cursor` for the next (older) page; null on the last page',
    }),
  })
  .meta({ id: 'WebhookDeliveryPage' });

export const deliveryIdInput = z.strictObject({
  webhookId: idParam('webhook'),
  deliveryId: idParam('delivery'),
});
