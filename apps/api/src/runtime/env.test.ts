import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from './env';

const dataDir = mkdtempSync(path.join(tmpdir(), 'music-env-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const secret = 'a-long-enough-secret-for-the-env-tests-0123456789';
const load = (vars: Record<string, string>) => loadEnv({ DATA_DIR: dataDir, ...vars });

describe('configuration', () => {
  it('refuses to start a production fleet without a shared JWT_SECRET, in one line', () => {
    expect(() => load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/music' })).toThrow(
      /^Invalid configuration: JWT_SECRET is required with NODE_ENV=production and DATABASE_URL[^\n]*$/,
    );
    expect(
      load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/music', JWT_SECRET: secret }).jwtSecret,
    ).toBe(secret);
    // On a laptop (or the embedded database) the key kept in DATA_DIR is fine.
    expect(load({ NODE_ENV: 'production' }).jwtSecretSource).toBe('generated');
    expect(load({ DATABASE_URL: 'postgres://db/music' }).jwtSecretSource).toBe('generated');
  });

  it('reads previous keys for rotation, each as strong as the signing key', () => {
    expect(
      load({ JWT_SECRET: secret, JWT_PREVIOUS_SECRETS: ` ${secret}-old , ${secret}-older ` })
        .jwtPreviousSecrets,
    ).toEqual([`${secret}-old`, `${secret}-older`]);
    expect(() => load({ JWT_SECRET: secret, JWT_PREVIOUS_SECRETS: 'short' })).toThrow(/JWT_PREVIOUS_SECRETS/);
  });

  it('waits before draining in production only, unless told otherwise', () => {
    expect(load({ NODE_ENV: 'production' }).SHUTDOWN_DELAY_SECONDS).toBe(5);
    expect(load({}).SHUTDOWN_DELAY_SECONDS).toBe(0);
    expect(load({ NODE_ENV: 'production', SHUTDOWN_DELAY_SECONDS: '12' }).SHUTDOWN_DELAY_SECONDS).toBe(12);
    expect(() => load({ SHUTDOWN_DELAY_SECONDS: '-1' })).toThrow(/SHUTDOWN_DELAY_SECONDS/);
  });

  it('needs DATABASE_URL for a pooler or a direct URL, and knows only transaction pooling', () => {
    expect(() => load({ DATABASE_POOLER: 'transaction' })).toThrow(/need DATABASE_URL/);
    expect(() => load({ DATABASE_DIRECT_URL: 'postgres://db/music' })).toThrow(/need DATABASE_URL/);
    expect(() => load({ DATABASE_URL: 'postgres://pooler/music', DATABASE_POOLER: 'session' })).toThrow(
      /DATABASE_POOLER/,
    );
    const env = load({
      DATABASE_URL: 'postgres://pooler/music',
      DATABASE_POOLER: 'transaction',
      DATABASE_DIRECT_URL: 'postgres://db/music',
    });
    expect(env).toMatchObject({ DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: 'postgres://db/music' });
    expect(load({}).MIGRATE_ON_START).toBe('true');
  });

  it('bounds the access-token lifetime and parses the trusted proxies', () => {
    expect(load({}).ACCESS_TOKEN_TTL_SECONDS).toBe(86_400);
    expect(load({ ACCESS_TOKEN_TTL_SECONDS: '900' }).ACCESS_TOKEN_TTL_SECONDS).toBe(900);
    expect(() => load({ ACCESS_TOKEN_TTL_SECONDS: '172800' })).toThrow(/ACCESS_TOKEN_TTL_SECONDS/);
    expect(load({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy.trusts('10.2.3.4')).toBe(true);
    expect(() => load({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY entry "everyone"/);
  });

  it('reads the request budgets: whole numbers a minute, 0 turning one off, never blank', () => {
    expect(load({})).toMatchObject({ RATE_LIMIT_PER_MINUTE: 1200, RATE_LIMIT_ANONYMOUS_PER_MINUTE: 120 });
    expect(load({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_ANONYMOUS_PER_MINUTE: ' 30 ' })).toMatchObject({
      RATE_LIMIT_PER_MINUTE: 0,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: 30,
    });
    for (const bad of ['', ' ', '-1', '1.5', 'ten', '2000000']) {
      expect(() => load({ RATE_LIMIT_PER_MINUTE: bad }), bad).toThrow(/RATE_LIMIT_PER_MINUTE/);
      expect(() => load({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: bad }), bad).toThrow(
        /RATE_LIMIT_ANONYMOUS_PER_MINUTE/,
      );
    }
  });

  it('keeps change-feed events EVENT_RETENTION_DAYS days: 30 by default, checked as the audit retention', () => {
    expect(load({}).EVENT_RETENTION_DAYS).toBe(30);
    expect(load({ EVENT_RETENTION_DAYS: '7' }).EVENT_RETENTION_DAYS).toBe(7);
    expect(() => load({ EVENT_RETENTION_DAYS: '0' })).toThrow(
      /^Invalid configuration: EVENT_RETENTION_DAYS: must be a whole number of days, from 1 to 36500$/,
    );
  });

  it('keeps audit events AUDIT_RETENTION_DAYS days: a positive whole number, a year by default', () => {
    expect(load({}).AUDIT_RETENTION_DAYS).toBe(365);
    expect(load({ AUDIT_RETENTION_DAYS: ' 30 ' }).AUDIT_RETENTION_DAYS).toBe(30);
    for (const bad of ['', ' ', '0', '-1', '1.5', 'ten', '36501']) {
      expect(() => load({ AUDIT_RETENTION_DAYS: bad }), bad).toThrow(
        /^Invalid configuration: AUDIT_RETENTION_DAYS: must be a whole number of days, from 1 to 36500$/,
      );
    }
  });

  it('takes a METRICS_TOKEN of 16 to 512 visible characters, and none by default (no metrics)', () => {
    expect(load({}).METRICS_TOKEN).toBeUndefined();
    expect(load({ METRICS_TOKEN: 'a'.repeat(16) }).METRICS_TOKEN).toBe('a'.repeat(16));
    for (const token of ['', 'short-token', 'sixteen chars ok', 'a'.repeat(513)]) {
      expect(() => load({ METRICS_TOKEN: token })).toThrow(/METRICS_TOKEN: must be 16 to 512/);
    }
  });

  it('reads DATABASE_READ_URLS as postgres URLs, only beside DATABASE_URL, and bounds the lag allowed', () => {
    const primary = 'postgres://db.internal/music';
    expect(load({}).readUrls).toEqual([]);
    expect(load({}).REPLICA_MAX_LAG_SECONDS).toBe(5);
    const env = load({
      DATABASE_URL: primary,
      JWT_SECRET: secret,
      DATABASE_READ_URLS: ' postgres://r1.internal/music , postgresql://r2.internal/music ',
      REPLICA_MAX_LAG_SECONDS: '2.5',
    });
    expect(env.readUrls).toEqual(['postgres://r1.internal/music', 'postgresql://r2.internal/music']);
    expect(env.REPLICA_MAX_LAG_SECONDS).toBe(2.5);
    expect(() => load({ DATABASE_READ_URLS: 'postgres://r1.internal/music' })).toThrow(/needs DATABASE_URL/);
    expect(() => load({ DATABASE_URL: primary, DATABASE_READ_URLS: 'mysql://r1/music' })).toThrow(
      /DATABASE_READ_URLS must be postgres:\/\/ URLs/,
    );
    for (const lag of ['0', '-1', '3601', 'soon']) {
      expect(() => load({ DATABASE_URL: primary, REPLICA_MAX_LAG_SECONDS: lag })).toThrow(
        /REPLICA_MAX_LAG_SECONDS/,
      );
    }
  });
});
