import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSecret, MIN_SECRET_BYTES } from '@music/auth';
import { z } from 'zod';
import { parseCorsOrigins } from '../http/cors';
import { parseTrustProxy, type TrustProxy } from '../http/trust-proxy';

const flag = (fallback: 'true' | 'false') => z.enum(['true', 'false']).default(fallback);
/**
 * A budget or a limit: a whole number (requests a minute, sign-ups an hour...), 0 for off. Written
 * out in digits: an empty or blank value is refused rather than read as 0, which would silently
 * turn the limit off.
 */
const countOrOff = (fallback: number) =>
  z
    .string()
    .regex(/^\s*\d{1,7}\s*$/, 'must be a whole number (0: off)')
    .transform(Number)
    .pipe(z.number().max(1_000_000))
    .default(fallback);

/** The only place the API reads `process.env`. Every variable has a safe laptop default. */
/** A retention in whole days, from 1 to 36500 (spaces around it allowed). */
const days = (fallback: number) =>
  z
    .string()
    .regex(/^\s*[1-9]\d{0,4}\s*$/, 'must be a whole number of days, from 1 to 36500')
    .transform(Number)
    .pipe(z.number().max(36_500, 'must be a whole number of days, from 1 to 36500'))
    .default(fallback);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).optional(),
  /** `transaction`: DATABASE_URL is a transaction-mode pooler (PgBouncer, RDS Proxy, Supavisor). */
  DATABASE_POOLER: z.enum(['none', 'transaction']).default('none'),
  /** The server itself, for migrations and anything tied to one connection; default DATABASE_URL. */
  DATABASE_DIRECT_URL: z.string().min(1).optional(),
  /**
   * Read replicas of DATABASE_URL (streaming standbys), comma-separated URLs: reads that may be a
   * moment old (catalogue and playlist reads) are served there. None by default.
   */
  DATABASE_READ_URLS: z.string().default(''),
  /** `transaction`: the read replicas are reached through transaction-mode poolers; default DATABASE_POOLER. */
  DATABASE_READ_POOLER: z.enum(['none', 'transaction']).optional(),
  /** A replica further behind the primary than this many seconds is not read from. */
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0.1).max(3_600).default(5),
  /** Apply pending migrations at start-up (under a lock); `false`: run `pnpm migrate` first. */
  MIGRATE_ON_START: flag('true'),
  DATA_DIR: z.string().min(1).default('./.data'),
  JWT_SECRET: z.string().optional(),
  /** Comma-separated keys still accepted when verifying access tokens (key rotation). */
  JWT_PREVIOUS_SECRETS: z.string().optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(86_400),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  LOGIN_MAX_FAILURES_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  /** A rotated refresh token presented again this soon gets a new pair, not a revoked session. */
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /** Anonymous sign-ups per client address an hour, over every instance; 0 turns the limit off. */
  SIGNUPS_PER_ADDRESS_PER_HOUR: countOrOff(20),
  /** Password-reset requests per email and per client address a quarter hour; 0: no limit. */
  PASSWORD_RESETS_PER_QUARTER_HOUR: countOrOff(5),
  /** `smtp://` or `smtps://` URL of the server that sends mail; unset: no mail is sent. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** The sender of the service's mails. */
  MAIL_FROM: z.string().min(3).max(320).default('Music catalogue <no-reply@localhost>'),
  /** The console's address as people reach it: mailed links point there. */
  CONSOLE_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'must be an http:// or https:// URL')
    .default('http://127.0.0.1:3000'),
  /** Requests a minute per authenticated user, over every instance; 0 turns the budget off. */
  RATE_LIMIT_PER_MINUTE: countOrOff(1200),
  /** Requests a minute per anonymous client address, over every instance; 0 turns it off. */
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: countOrOff(120),
  /** Every connection this instance opens to DATABASE_URL, in total. */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** `json` lines (default) or `pretty` ones for people (`pnpm dev` sets it). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  /** `loopback`, `none`, or comma-separated addresses and CIDR ranges of trusted proxies. */
  TRUST_PROXY: z.string().default('loopback'),
  /** Comma-separated exact origins browsers may call `/v1` from (CORS); none by default. */
  CORS_ORIGINS: z.string().default(''),
  /** After SIGTERM: seconds of answering readiness with 503 while serving everything else. */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).optional(),
  /** The clean-up runs once per this period across all instances; 0 turns it off on this instance. */
  HOUSEKEEPING_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** At most this many rows removed per table per clean-up run. */
  HOUSEKEEPING_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  /** Audit events older than this many days are removed by the clean-up. */
  AUDIT_RETENTION_DAYS: days(365),
  /** Change-feed events older than this many days are removed; an older cursor is answered 410. */
  EVENT_RETENTION_DAYS: days(30),
  /** The waits, in seconds, before each retry of a failed webhook delivery (comma-separated; empty: none). */
  WEBHOOK_RETRY_SECONDS: z
    .string()
    .regex(
      /^\s*(\d{1,6}\s*(,\s*\d{1,6}\s*){0,19})?$/,
      'must be up to 20 comma-separated whole numbers of seconds',
    )
    .transform((list) => (list.trim() === '' ? [] : list.split(',').map(Number)))
    .pipe(
      z.array(
        z
          .number()
          .min(1, 'each wait must be at least 1 second')
          .max(604_800, 'each wait must be at most 604800 seconds (7 days)'),
      ),
    )
    .default([5, 300, 1800, 7200, 18_000, 36_000, 36_000]),
  /** A webhook is disabled after this many failed delivery attempts in a row. */
  WEBHOOK_MAX_FAILURES: z
    .string()
    .regex(/^\s*[1-9]\d{0,5}\s*$/, 'must be a whole number from 1 to 999999')
    .transform(Number)
    .default(50),
  /** `true`: webhooks may use `http:` URLs (otherwise `https:` only). */
  WEBHOOK_ALLOW_HTTP: flag('false'),
  /** `true`: webhooks may reach loopback and private addresses (never link-local or metadata ones). */
  WEBHOOK_ALLOW_PRIVATE: flag('false'),
  /**
   * The bearer token of `GET /metrics` (Prometheus); unset: no metrics are kept and the path is a
   * 404. Long enough not to be guessed: the exposition names operations and their traffic.
   */
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,512}$/, 'must be 16 to 512 visible ASCII characters, no spaces')
    .optional(),
  /** OTLP/HTTP endpoint (an OpenTelemetry collector, Jaeger, Tempo) traces go to; unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'must be an http:// or https:// URL')
    .optional(),
  /** How traces are sent there: `http/protobuf` (default, as the standard says) or `http/json`. */
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  /** Seed the demo catalogue into an empty database at start-up (`pnpm dev` sets it). */
  SEED_DEMO_DATA: flag('false'),
});

type Parsed = z.infer<typeof schema>;

export type Env = Omit<Parsed, 'SHUTDOWN_DELAY_SECONDS'> & {
  SHUTDOWN_DELAY_SECONDS: number;
  jwtSecret: string;
  /** `generated`: no JWT_SECRET, the key kept in DATA_DIR (instances must share that folder). */
  jwtSecretSource: 'configured' | 'generated';
  /** Keys accepted for verification besides jwtSecret. */
  jwtPreviousSecrets: string[];
  trustProxy: TrustProxy;
  corsOrigins: string[];
  /** DATABASE_READ_URLS, split. */
  readUrls: string[];
};

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const env = parsed.data;
  if ((env.ADMIN_EMAIL && !env.ADMIN_PASSWORD) || (!env.ADMIN_EMAIL && env.ADMIN_PASSWORD)) {
    throw new Error('Invalid configuration: set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither');
  }
  if (env.ADMIN_PASSWORD && (env.ADMIN_PASSWORD.length < 8 || env.ADMIN_PASSWORD.length > 128)) {
    throw new Error('Invalid configuration: ADMIN_PASSWORD must be 8 to 128 characters');
  }
  if (!env.DATABASE_URL && (env.DATABASE_DIRECT_URL || env.DATABASE_POOLER !== 'none')) {
    throw new Error(
      'Invalid configuration: DATABASE_DIRECT_URL and DATABASE_POOLER need DATABASE_URL (the embedded database has neither)',
    );
  }
  const readUrls = env.DATABASE_READ_URLS.split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of readUrls) {
    if (!/^postgres(ql)?:\/\/\S+$/.test(url)) {
      throw new Error('Invalid configuration: DATABASE_READ_URLS must be postgres:// URLs, comma-separated');
    }
  }
  if (readUrls.length > 0 && !env.DATABASE_URL) {
    throw new Error(
      'Invalid configuration: DATABASE_READ_URLS needs DATABASE_URL (the embedded database has no replicas)',
    );
  }
  if (env.NODE_ENV === 'production' && env.DATABASE_URL && env.JWT_SECRET === undefined) {
    throw new Error(
      'Invalid configuration: JWT_SECRET is required with NODE_ENV=production and DATABASE_URL (every instance must sign with the same key)',
    );
  }
  return {
    ...env,
    SHUTDOWN_DELAY_SECONDS: env.SHUTDOWN_DELAY_SECONDS ?? (env.NODE_ENV === 'production' ? 5 : 0),
    jwtSecret: resolveSecret(env.JWT_SECRET, env.DATA_DIR),
    jwtSecretSource: env.JWT_SECRET === undefined ? 'generated' : 'configured',
    jwtPreviousSecrets: previousSecrets(env.JWT_PREVIOUS_SECRETS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    readUrls,
  };
}

function assertStrong(name: string, secret: string): void {
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
    throw new Error(`Invalid configuration: ${name} must be at least ${MIN_SECRET_BYTES} bytes`);
  }
}

function previousSecrets(list: string | undefined): string[] {
  const secrets = (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const secret of secrets) assertStrong('each of JWT_PREVIOUS_SECRETS', secret);
  return secrets;
}

/**
 * A configured secret must be strong; without one, a secret is generated on first start and
 * kept in DATA_DIR (created exclusively, so instances sharing that folder agree on one).
 */
function resolveSecret(configured: string | undefined, dataDir: string): string {
  if (configured !== undefined) {
    assertStrong('JWT_SECRET', configured);
    return configured;
  }
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    try {
      writeFileSync(file, generateSecret(), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES)
    throw new Error(`${file} holds a secret that is too short`);
  return secret;
}
