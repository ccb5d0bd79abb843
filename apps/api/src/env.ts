import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSecret, MIN_SECRET_BYTES } from '@music/auth';
import { z } from 'zod';

/** The only place the API reads `process.env`. Every variable has a safe laptop default. */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  JWT_SECRET: z.string().optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  LOGIN_MAX_FAILURES_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** `loopback`: honour X-Forwarded-For from a proxy on this machine (the console); `none`: never. */
  TRUST_PROXY: z.enum(['loopback', 'none']).default('loopback'),
  /** Seed the demo catalogue into an empty database at start-up (`pnpm dev` sets it). */
  SEED_DEMO_DATA: z.enum(['true', 'false']).default('false'),
});

export type Env = z.infer<typeof schema> & { jwtSecret: string };

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
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
  return { ...env, jwtSecret: resolveSecret(env.JWT_SECRET, env.DATA_DIR) };
}

/**
 * A configured secret must be strong; without one, a secret is generated on first start and
 * kept in DATA_DIR (created exclusively, so instances starting together agree on one).
 */
function resolveSecret(configured: string | undefined, dataDir: string): string {
  if (configured !== undefined) {
    if (Buffer.byteLength(configured) < MIN_SECRET_BYTES) {
      throw new Error(`Invalid configuration: JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes`);
    }
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
