export {
  type Actor,
  type Authentication,
  authenticate,
  type Context,
  createContextInner,
  DEFAULT_SETTINGS,
  type Deps,
  type Logger,
  type RequestInfo,
  type Settings,
} from './context';
export {
  AppError,
  ERROR_CODES,
  type ErrorCode,
  type FieldError,
  issuesToFieldErrors,
  toAppError,
} from './errors';
export { ensureAdmin } from './modules/auth/auth.service';
export { createOpenApiDocument, restRoutes } from './openapi';
export { type AppRouter, appRouter, callProcedure, procedureKind, procedureKinds } from './router';
export { createCallerFactory, type HttpMethod, type Meta, type RouteMeta } from './trpc';
