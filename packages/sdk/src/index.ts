export {
  type ChangeEvent,
  type ChangePage,
  type ChangesOptions,
  createMusicClient,
  type MusicClient,
  type MusicClientExtras,
  type MusicClientOptions,
  type User,
} from './client.js';
export { type ApiError, type ErrorBody, MusicApiError, type ValidationError } from './errors.js';
export type { components, operations, paths } from './generated/openapi.js';
export { type ItemOf, type ListParams, type ListPath, pageMode, parseLinks } from './paginate.js';
export type { RetryEvent, RetryOptions } from './retry.js';
export type { SessionTokens, TokenResponse } from './session.js';
