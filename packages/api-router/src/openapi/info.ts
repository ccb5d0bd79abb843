/** The document's version: the contract it describes. */
export const API_VERSION = '1.7.0';

/**
 * What holds for every operation, said once: client generators put it at the top of the
 * generated package, and the per-operation parts (headers, statuses) say the rest.
 */
export const INFO_DESCRIPTION = `Users, artists, songs and playlists of a music catalogue.

**Conventions.** JSON in and out (UTF-8). Ids are UUIDs, accepted in any letter case and answered lower-case. Dates are UTC \`YYYY-MM-DDThh:mm:ssZ\`. Text is stored in Unicode NFC. Unknown body fields are refused (422). Every error is \`{code, message}\` (\`ApiError\`); a 422 is a \`ValidationError\` that adds \`errors: [{field, message}]\`. Branch on \`code\`, never on \`message\`. Every answer carries \`X-Request-Id\`.

**Lists** take \`page\` (from 1) and \`limit\` (1 to 100, default 20) and answer \`{data, pagination: {page, limit, total}}\` with a \`Link\` header (first, prev, next, last). A page past the end is empty and keeps the true \`total\`.

**HTTP.** An unknown path is 404 and a known path with a method it does not have is 405 with \`Allow\`, both in the error shape. \`HEAD\` works wherever \`GET\` does; \`OPTIONS\` answers 204 with \`Allow\`. Bodies over 1 MiB are 413. Answers over 1 KiB are compressed (gzip or br) when \`Accept-Encoding\` allows. Browsers on origins the operator lists (\`CORS_ORIGINS\`) get CORS headers; others get none.

**New in 1.1** (additive: a 1.0 client keeps working):
- Conditional requests: records carry a strong \`ETag\`; \`If-None-Match\` on a GET answers 304, and \`If-Match\` on a write answers 412 when the record changed meanwhile (no lost updates).
- \`Idempotency-Key\` on creations and on appending a song to a playlist: a retried request is answered once (\`Idempotent-Replayed: true\`).
- Request budgets per caller with \`RateLimit-*\` headers; over budget is 429 with \`Retry-After\`.
- \`Link\` headers on every list, and \`sort\` on the users, artists, songs and playlists lists.
- \`PUT /users/{userId}/role\`, \`GET /users?search=\`, \`GET /genres\`; there is always an admin (409 otherwise).
- \`GET /artists?ids=\` (up to 100 artists in one call) and \`GET /profiles\` (the usernames of public playlists' owners).
- Every 401 carries \`WWW-Authenticate\`; a token that is sent must be valid, also on public operations.

**New in 1.2** (accounts and authorization; see the changelog for the answers that changed, each where 1.1 let a caller do what its user may not):
- \`PATCH /users/{userId}\`: a rename needs no password. Changing your own email or password needs \`currentPassword\` (422 on it; a wrong one counts as a failed sign-in). A new password ends the account's other sessions.
- Account recovery: \`POST /auth/password-reset\` mails a single-use link (202 whatever the email), \`POST /auth/password-reset/confirm\` sets the password; admins make a link with \`POST /users/{userId}/password-reset\`.
- Artist powers need the role \`artist\` now, and a song must already be yours before you link it to another of your artists; you add or remove only your own artists on a song.
- A refresh token repeated within a few seconds of its rotation (two workers of one client) gets a new pair instead of ending the session.
- Anonymous sign-ups are limited per client address (429); every error \`message\` is at most 1,000 characters; C1 control characters are refused in text, invisible formatting characters in usernames.

**New in 1.3** (integrations, additive):
- API keys for programs: \`POST /api-keys\` shows an \`mc_\` token once; send it as \`Authorization: Bearer mc_…\`. A key acts as its owner within its scopes (the \`apiKeyAuth\` scheme names the scope each operation needs), never beyond the owner's role now; outside them, 403 with \`WWW-Authenticate: Bearer error="insufficient_scope"\`. Each key has its own request budget.
- \`GET /audit-events\` (admins): who changed what, when and from where, with each changed field before and after.
- Songs carry an optional \`isrc\` (unique; \`GET /songs?isrc=\` finds it).
- \`GET /events\`: the change feed. Every change to songs, artists, playlists and users, in commit order, read on with a cursor; 410 \`GONE\` (a new error code) for a cursor older than the events kept.
- Reading many: \`ids\` on songs, playlists and users; \`expand=artists\` on song reads; \`cursor\` paging (stable under inserts) beside \`page\`; every list has a weak \`ETag\` and answers \`If-None-Match\` with 304.
- Webhooks: \`POST /webhooks\` with a URL and event types; each event is POSTed to it as the feed shows it, signed as Standard Webhooks say (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`), retried on a schedule, with the deliveries listed, sent again on request, and a test ping.
- Every 201 that made something readable by id has a \`Location\`. The error schema is \`ApiError\` (\`Error\` stays as an alias).`;

/** Every tag with what its operations are about. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Sign in with email and password, refresh and end sessions, who am I, and recovering an account whose password is lost. Access tokens are JWTs valid 24 hours; refresh tokens are single use.',
  users:
    'Accounts and their roles (`user`, `artist`, `admin`). Anyone may sign up; a user sees and changes only themself, admins everyone. `GET /profiles` shows any signed-in user the username (nothing else) of whoever owns a public playlist.',
  artists:
    'Artists of the catalogue and the songs linked to them. Admins create and delete them; an artist account (`userId`) edits its own.',
  songs:
    'The catalogue’s songs, searchable by title, album and artist name. Admins, and artist accounts for their own artists, write them.',
  genres: 'The genres in use across the catalogue, with their song counts (read-only).',
  search:
    'A finder for search boxes: the best few songs, artists, albums and playlists for what was typed so far, ranked, typo-tolerant. Every `search` parameter of the lists folds text the same way (letter case, accents, letter variants, punctuation and spacing aside).',
  playlists:
    'Ordered lists of songs owned by a user: private by default, readable by every signed-in user when public.',
  'api-keys':
    'Credentials for programs: a key acts as its owner within the scopes it was given (see the `apiKeyAuth` scheme). Made, listed and revoked by a signed-in session only; the token is shown once and stored only as a hash.',
  audit:
    'The audit trail (admins): who wrote what, when, from where, with each changed field before and after. Events are kept AUDIT_RETENTION_DAYS days (a year by default).',
  events:
    'The change feed: every change, in the order the writes committed, for programs that keep a copy of the catalogue or react to changes. Readable with any session, or an API key with `events:read`. Events are kept EVENT_RETENTION_DAYS days (30 by default).',
  imports:
    'Bulk: a CSV or NDJSON file of songs in, applied by a worker, followed by its id. `GET /songs/export` is the way out. Admins and artist accounts (their own songs); an API key needs `catalogue:write`.',
  webhooks:
    'Changes pushed instead of polled: each event of the types a webhook asked for is POSTed to its URL, signed as Standard Webhooks say, retried until the receiver takes it. Any session manages its own (admins anyone’s), or an API key with `webhooks:write`.',
  operations:
    'Health checks for load balancers and supervisors, and this document. Public, and not under a request budget.',
};
