import type { Migration } from 'kysely/migration';
import * as usersAndSessions from './2026-11-22T10-00-users-and-sessions';
import * as catalogue from './2026-11-22T11-00-catalogue';
import * as rowCounts from './2026-11-22T12-00-row-counts';
import * as songSearch from './2026-11-23T10-00-song-search';
import * as catalogueVersion from './2026-11-23T11-00-catalogue-version';
import * as loginThrottle from './2026-11-23T23-00-login-throttle';
import * as housekeeping from './2026-11-23T23-10-housekeeping';
import * as idempotencyAndBudgets from './2026-11-24T10-00-idempotency-and-budgets';
import * as attemptWindowsAndPasswordResets from './2026-11-26T10-00-attempt-windows-and-password-resets';
import * as apiKeys from './2026-11-27T10-00-api-keys';
import * as auditEvents from './2026-11-27T11-00-audit-events';
import * as searchFolding from './2026-11-28T10-00-search-folding';
import * as searchScale from './2026-11-29T10-00-search-scale';
import * as searchPairs from './2026-11-30T10-00-search-pairs';
import * as changeFeed from './2026-12-01T10-00-change-feed';
import * as songIsrc from './2026-12-01T11-00-song-isrc';
import * as webhooks from './2026-12-02T10-00-webhooks';
import * as songExternalId from './2026-12-02T11-00-song-external-id';
import * as imports from './2026-12-02T12-00-imports';
import * as readPositions from './2026-12-03T10-00-read-positions';

/**
 * A migration, and whether it is additive: it only adds (tables, nullable or defaulted columns,
 * indexes, functions) what the previous release neither reads nor must write, so instances of
 * that release keep working on a database that has it. Marked with `export const additive =
 * true` in the migration's file; the mark is recorded in the database as the migration runs, so
 * an older release, which has never seen the file, can read it there.
 */
export interface ReleaseMigration extends Migration {
  additive?: boolean;
}

/**
 * Every migration, in order. Listed statically (not read from a folder) so the bundled API
 * carries them and no file-system layout can change what runs.
 */
export const migrations: Record<string, ReleaseMigration> = {
  '2026-11-22T10-00-users-and-sessions': usersAndSessions,
  '2026-11-22T11-00-catalogue': catalogue,
  '2026-11-22T12-00-row-counts': rowCounts,
  '2026-11-23T10-00-song-search': songSearch,
  '2026-11-23T11-00-catalogue-version': catalogueVersion,
  '2026-11-23T23-00-login-throttle': loginThrottle,
  '2026-11-23T23-10-housekeeping': housekeeping,
  '2026-11-24T10-00-idempotency-and-budgets': idempotencyAndBudgets,
  '2026-11-26T10-00-attempt-windows-and-password-resets': attemptWindowsAndPasswordResets,
  '2026-11-27T10-00-api-keys': apiKeys,
  '2026-11-27T11-00-audit-events': auditEvents,
  '2026-11-28T10-00-search-folding': searchFolding,
  '2026-11-29T10-00-search-scale': searchScale,
  '2026-11-30T10-00-search-pairs': searchPairs,
  '2026-12-01T10-00-change-feed': changeFeed,
  '2026-12-01T11-00-song-isrc': songIsrc,
  '2026-12-02T10-00-webhooks': webhooks,
  '2026-12-02T11-00-song-external-id': songExternalId,
  '2026-12-02T12-00-imports': imports,
  '2026-12-03T10-00-read-positions': readPositions,
};
