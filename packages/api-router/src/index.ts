export {
  type Actor,
  authenticate,
  type Context,
  createContextInner,
  createDeps,
  DEFAULT_SETTINGS,
  type Deps,
  type Logger,
  type Mail,
  type Mailer,
  type RequestInfo,
  type Settings,
} from './context';
export { AppError, describeError, type ErrorCode, errorHeaders, type FieldError } from './errors';
export {
  type EntityTagCondition,
  etagOf,
  etagOfJson,
  matchesStrongly,
  matchesWeakly,
  parseEntityTags,
} from './etag';
export type { FileAnswer, FileUpload } from './files';
export { ensureAdmin } from './modules/auth/auth.service';
export { type JobQueueTimings, jobQueues } from './modules/common/job-queues';
export { IMPORT_BATCH, runImport } from './modules/imports/import.runner';
export { IMPORT_JOBS } from './modules/imports/imports.service';
export {
  DELIVERY_JOBS,
  type DeliveryAttempt,
  type DeliveryQueue,
  deliveryQueue,
  dispatchWebhooks,
} from './modules/webhooks/dispatch';
export {
  addressRefusal,
  checkWebhookUrl,
  guardedLookup,
  type UrlPolicy,
} from './modules/webhooks/url-policy';
export { NO_OBSERVER, type Observer, THROTTLES } from './observer';
export { createOpenApiDocument } from './openapi';
export { type Operation, operationAt, operations } from './procedures';
export { mayLag } from './read-routing';
export type { ReadReplica, Reads } from './reads';
export { type AppRouter, appRouter } from './router';
export { pageMode } from './schemas';
export { type ApiKeyGrant, SCOPES, type Scope } from './scopes';
export type { Traits } from './traits';
export {
  appErrorOf,
  createCallerFactory,
  type HttpMethod,
  isInputFailure,
  type Meta,
  type RouteMeta,
  refusesCaller,
  rpcErrorShape,
} from './trpc';
export type { RouterInputs, RouterOutputs } from './types';
