import { IDS, userExample } from '../examples';
import type { OperationDoc } from '../types';

const NOT_YOURSELF = 'You are not an admin and this is not your own id (whether or not such a user exists).';

/** What a PUT or PATCH of a user can answer besides success. */
const USER_WRITE_ERRORS = {
  FORBIDDEN: `${NOT_YOURSELF} Or a non-admin sending a \`role\` other than their current one.`,
  NOT_FOUND: 'No user with this id (admins only: others get 403)',
  CONFLICT: 'The email belongs to another user, or the change would leave no admin',
  VALIDATION_FAILED:
    'A field is invalid or unknown; or `currentPassword` is missing or wrong where your own email or ' +
    'password changes (`field: "currentPassword"`)',
  TOO_MANY_REQUESTS:
    'Too many failed sign-ins (a wrong `currentPassword` counts as one) for your email or from this ' +
    'address, or over the request budget: wait `Retry-After` seconds',
};

export const authAndUserDocs: Record<string, OperationDoc> = {
  'auth.login': {
    description:
      'Answers an access token (a JWT for `Authorization: Bearer`, valid `expiresIn` seconds) and a ' +
      'refresh token (single use, valid 30 days), with the user. The email is matched ' +
      'case-insensitively. After 10 failed attempts for one email within 15 minutes, every attempt ' +
      'for it (the right password included) is refused with 429 until the window ends.',
    body: 'LoginRequest',
    request: { email: 'ada@example.com', password: 'correct horse battery staple' },
    errors: {
      UNAUTHORIZED:
        'Wrong email or password (the same answer for both, in about the same time), or a bearer token ' +
        'was sent with the request and refused',
      TOO_MANY_REQUESTS:
        'Too many failed sign-ins for this email or from this address, or over the request budget: ' +
        'wait `Retry-After` seconds',
      VALIDATION_FAILED: '`email` or `password` missing or not a string, or an unknown field',
    },
  },
  'auth.refresh': {
    description:
      'Rotation: the answer carries a new refresh token and the one sent stops working at once. ' +
      'Presenting a refresh token that was already exchanged is taken as theft: its whole session ' +
      'is revoked (every token of it answers 401), so keep only the newest one.',
    body: 'RefreshRequest',
    request: { refreshToken: 'rt_7Qm3d9VfK2pL8xZ4nB6cH1sT5wY0aE3j' },
    errors: {
      UNAUTHORIZED:
        'The refresh token is unknown, expired, already used (its session is now revoked) or its ' +
        'session ended; sign in again',
    },
  },
  'auth.logout': {
    description:
      'Ends the session of the token sent: that access token and its refresh token answer 401 ' +
      'from now on, on every instance. Other sessions of the same user stay signed in.',
  },
  'auth.me': {
    description: 'The user the access token belongs to, as `GET /users/{userId}` shows it (with its `ETag`).',
  },
  'auth.requestPasswordReset': {
    description:
      'New in 1.2. When the email has an account, a link to set a new password is mailed to it: it ' +
      'works once, for 30 minutes. The answer is 202 either way, in about the same time, so it ' +
      'tells nobody whether the email has an account. At most 5 requests a quarter hour per email ' +
      'and per client address (429 with `Retry-After`).',
    body: 'PasswordResetRequest',
    request: { email: 'ada@example.com' },
    errors: {
      TOO_MANY_REQUESTS:
        'Five requests for this email, or from this address, within a quarter hour (whether the ' +
        'email has an account or not), or over the request budget: wait `Retry-After` seconds',
      VALIDATION_FAILED: '`email` missing or not an email address, or an unknown field',
    },
  },
  'auth.resetPassword': {
    description:
      'New in 1.2. Takes the token of a reset link (the part after `#token=`) and the new password. ' +
      'The link is then spent, with every other link of the account, and every session of the ' +
      'account ends: sign in with the new password.',
    body: 'PasswordResetConfirm',
    request: { token: 'Xc2Pq9Lm4Rt7Vw1Yz5Ab8Cd3Ef6Gh0Jk2Mn4Pq6St8U', password: 'a new, long passphrase' },
    errors: {
      VALIDATION_FAILED:
        'The token is unknown, expired or already used (`field: "token"`), or the password is not ' +
        '8 to 128 characters',
    },
  },

  'users.list': {
    description:
      'Admins only. Filter by `role`, find by `search`, order with `sort` ' +
      '(`username`, `email`, `createdAt`; default oldest first).',
    query: { search: 'ada', sort: '-createdAt', page: 1, limit: 20 },
    errors: { FORBIDDEN: 'Not an admin' },
  },
  'users.profiles': {
    description:
      'Any signed-in caller. Resolves the names behind `userId`s (e.g. the owners of other ' +
      'listeners’ public playlists) in one call: pass up to 100 `ids` and `limit=100`. Making a ' +
      'playlist public shows its owner’s username with it. A malformed id in `ids` or more than ' +
      '100 of them is a 400.',
    query: { ids: `${IDS.user},${IDS.artistUser}`, page: 1, limit: 100 },
    response: {
      data: [
        { id: IDS.user, username: 'Ada Lovelace' },
        { id: IDS.artistUser, username: 'Grace Hopper' },
      ],
      pagination: { page: 1, limit: 100, total: 2 },
    },
  },
  'users.create': {
    description:
      'Public sign-up: without a token the new user gets role `user`. An admin’s token may set any ' +
      '`role`; anyone else asking for another role gets 403 (an unknown role is 422). Send an ' +
      '`Idempotency-Key` to retry safely: a repeat answers the first result again.',
    body: 'UserCreate',
    request: { username: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery staple' },
    response: userExample,
    errors: {
      UNAUTHORIZED:
        'A bearer token was sent and refused (invalid, expired or revoked); send none to sign up ' +
        'anonymously',
      FORBIDDEN: 'A `role` other than `user` without an admin’s token',
      CONFLICT: 'The email is already used (case-insensitively)',
    },
  },
  'users.get': {
    description:
      'Yourself, or any user as an admin. Revalidate with `If-None-Match` to get 304 when unchanged.',
    errors: { FORBIDDEN: NOT_YOURSELF, NOT_FOUND: 'No user with this id (admins only: others get 403)' },
  },
  'users.update': {
    description:
      'Full replace: `username`, `email` and `password` are required; `role` may be omitted (it stays). ' +
      'To keep your password, send the current one. Prefer `PATCH` (new in 1.2), which needs no ' +
      'password to rename. Send the `ETag` you read as `If-Match` so a concurrent change is not ' +
      'overwritten.',
    body: 'UserUpdate',
    request: {
      username: 'Ada King',
      email: 'ada.king@example.com',
      password: 'correct horse battery staple',
    },
    response: { ...userExample, username: 'Ada King', email: 'ada.king@example.com' },
    errors: USER_WRITE_ERRORS,
  },
  'users.patch': {
    description:
      'New in 1.2: send only what changes. Renaming needs no password; a new `email` or `password` ' +
      'for your own account needs `currentPassword`. An admin sets another user’s password without ' +
      'knowing theirs (every session of that user then ends). Send the `ETag` you read as `If-Match` ' +
      'so a concurrent change is not overwritten.',
    body: 'UserPatch',
    request: { email: 'ada.king@example.com', currentPassword: 'correct horse battery staple' },
    response: { ...userExample, email: 'ada.king@example.com' },
    errors: USER_WRITE_ERRORS,
  },
  'users.delete': {
    description: 'Yourself, or any user as an admin. Their sessions end at once.',
    errors: {
      FORBIDDEN: NOT_YOURSELF,
      NOT_FOUND: 'No user with this id (admins only: others get 403)',
      CONFLICT: 'This is the last admin: there is always one',
    },
  },
  'users.passwordResetLink': {
    description:
      'New in 1.2: the admin’s way to let a user back in where no mail is set up. Answers the link ' +
      'of the console page where the user sets a new password, and when it stops working.',
    response: {
      url: 'https://console.example.com/reset-password#token=Xc2Pq9Lm4Rt7Vw1Yz5Ab8Cd3Ef6Gh0Jk2Mn4Pq6St8U',
      expiresAt: '2026-11-22T12:30:00Z',
    },
    errors: { FORBIDDEN: 'Not an admin', NOT_FOUND: 'No user with this id' },
  },
  'users.setRole': {
    description: 'New in 1.1: promotes or demotes a user without resending their other fields.',
    body: 'UserRoleUpdate',
    request: { role: 'artist' },
    response: {
      ...userExample,
      id: IDS.artistUser,
      username: 'Grace Hopper',
      email: 'grace@example.com',
      role: 'artist',
    },
    errors: {
      FORBIDDEN: 'Not an admin',
      NOT_FOUND: 'No user with this id',
      CONFLICT: 'The change would leave no admin',
      VALIDATION_FAILED: '`role` missing or not one of `user`, `artist`, `admin`, or an unknown field',
    },
  },
};
