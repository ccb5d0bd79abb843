export { connectionBudget, createDatabase, type Database, type DatabaseConfig } from './client';
export { isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation } from './errors';
export { isUuid, uuidv7 } from './ids';
export { likeContains } from './like';
export {
  checkMigrations,
  MigrationMismatchError,
  type MigrationReport,
  migrateToLatest,
  type ReleaseMigration,
} from './migrate';
export * from './repositories/artists';
export * from './repositories/housekeeping';
export * from './repositories/locks';
export * from './repositories/login-throttle';
export * from './repositories/playlists';
export { countRows } from './repositories/row-counts';
export * from './repositories/sessions';
export * from './repositories/songs';
export * from './repositories/users';
export type * from './schema';
