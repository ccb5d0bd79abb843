import type { ColumnType, Generated, Selectable } from 'kysely';

/** The tables of webhooks (see migrations/2026-12-02T10-00-webhooks.ts); part of `Database` in ./schema.ts. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  from_position: ColumnType<string, string, never>;
  enabled: Generated<boolean>;
  failures: Generated<number>;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The JSON body, as sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  created_at: CreatedAt;
}

export interface WebhookDispatchTable {
  id: Generated<boolean>;
  position: ColumnType<string, never, string>;
}

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
