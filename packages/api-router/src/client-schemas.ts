/**
 * The zod schemas of the procedures' inputs, for the console's forms (one schema shared by
 * form and procedure). Browser-safe: nothing here imports server code.
 */

export { ERROR_CODES, type ErrorCode, type FieldError, MAX_FIELD_ERRORS } from './error-codes';
export {
  createArtistInput,
  listArtistsInput,
  patchArtistInput,
  replaceArtistInput,
} from './modules/artists/artists.schema';
export { loginInput, refreshInput } from './modules/auth/auth.schema';
export { confirmResetInput, requestResetInput } from './modules/auth/recovery.schema';
export {
  addPlaylistSongInput,
  createPlaylistInput,
  listPlaylistsInput,
  replacePlaylistInput,
} from './modules/playlists/playlists.schema';
export { createSongInput, listSongsInput, patchSongInput } from './modules/songs/songs.schema';
export {
  createUserInput,
  emailSchema,
  listUsersInput,
  passwordSchema,
  patchUserInput,
  roleSchema,
  updateUserInput,
  usernameSchema,
} from './modules/users/users.schema';
export { pageMode } from './schemas';
