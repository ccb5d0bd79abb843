import type { ColumnType, Generated, Selectable } from 'kysely';

/** The tables of webhooks and imports (their migrations say what each holds); part of `Database` in ./schema.ts. */

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

export type ImportStatus = 'receiving' | 'queued' | 'running' | 'succeeded' | 'failed';

/** An import's first errors, by line. */
export interface ImportError {
  line: number;
  field: string;
  message: string;
}

export interface ImportsTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  request_id: string;
  address: string;
  format: 'csv' | 'ndjson';
  dry_run: boolean;
  status: ImportStatus;
  bytes: Generated<string>;
  lines_done: Generated<number>;
  read: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  unchanged: Generated<number>;
  failed: Generated<number>;
  errors: ColumnType<ImportError[], string | undefined, string>;
  failure: string | null;
  created_at: CreatedAt;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface ImportChunksTable {
  import_id: string;
  n: number;
  data: Buffer;
}

export type ImportRow = Selectable<ImportsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
