export { connectionBudget, createDatabase, type Database, type DatabaseConfig, type Db } from './client';
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
// The repositories as namespaces, for the services (`songs.findSongById(db, id)`).
export * as artists from './repositories/artists';
export * as housekeeping from './repositories/housekeeping';
export * as loginThrottle from './repositories/login-throttle';
export * as playlists from './repositories/playlists';
export * as sessions from './repositories/sessions';
export * as songs from './repositories/songs';
export * as users from './repositories/users';
