export { type Balanced, type HAProxy, startHaproxy } from './haproxy';
export { apiInstance, consoleInstance, type Instance, ROOT } from './instances';
export { type PgBouncer, type PgBouncerOptions, startPgBouncer } from './pgbouncer';
export {
  connectSession,
  findPostgresTools,
  type PostgresInstance,
  type SqlSession,
  startPostgres,
  startReplica,
} from './postgres';
export { Cleanup, freePort, sleep, until } from './processes';
