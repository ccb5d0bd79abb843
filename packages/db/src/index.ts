export {
  connectionBudget,
  createDatabase,
  type Database,
  type DatabaseConfig,
  type PoolUse,
  type ServerConnection,
  type SqlExecutor,
} from './client';
export { observeStatements, type StatementObserver } from './driver/observe';
export { codeOf, isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation } from './errors';
export { isUuid, uuidv7 } from './ids';
export {
  createJobs,
  derivedJobId,
  executorOf,
  type Jobs,
  type JobsOptions,
  type NewJob,
  type QueueOptions,
} from './jobs';
export { likeContains } from './like';
export {
  checkMigrations,
  MigrationMismatchError,
  type MigrationReport,
  migrateToLatest,
  type ReleaseMigration,
} from './migrate';
export { lsnOf, ReadRouter, type ReadRouterOptions, type ReplicaStatus } from './read-router';
export type { ApiKeyRecord, KeyOwner } from './repositories/api-keys';
// Each repository both by name and as a namespace (the services: `songs.findSongById(db, id)`).
export * as apiKeys from './repositories/api-keys';
export * from './repositories/artists';
export * as artists from './repositories/artists';
export * as attemptWindows from './repositories/attempt-windows';
export * as auditEvents from './repositories/audit-events';
export { type BackgroundWork, backgroundWork } from './repositories/background-work';
export * as changeEvents from './repositories/change-events';
export * as finder from './repositories/finder';
export * from './repositories/genres';
export * as genres from './repositories/genres';
export * from './repositories/housekeeping';
export * as housekeeping from './repositories/housekeeping';
export * from './repositories/idempotency';
export * as idempotency from './repositories/idempotency';
export * as imports from './repositories/imports';
export * from './repositories/locks';
export * from './repositories/login-throttle';
export * as loginThrottle from './repositories/login-throttle';
export {
  isKeysetWindow,
  type KeyKind,
  type Keyset,
  keyKinds,
  type ListWindow,
  type OrderKey,
} from './repositories/order';
export * as passwordResets from './repositories/password-resets';
export * from './repositories/playlists';
export * as playlists from './repositories/playlists';
export * from './repositories/request-budgets';
export * as requestBudgets from './repositories/request-budgets';
export { countRows } from './repositories/row-counts';
export { foldTerm, type SearchTerm } from './repositories/search-terms';
export * from './repositories/sessions';
export * as sessions from './repositories/sessions';
export * from './repositories/songs';
export * as songs from './repositories/songs';
export * as songsExport from './repositories/songs-export';
export * from './repositories/users';
export * as users from './repositories/users';
export * as webhookDeliveries from './repositories/webhook-deliveries';
export * as webhooks from './repositories/webhooks';
export type * from './schema';
export type * from './schema-integrations';
