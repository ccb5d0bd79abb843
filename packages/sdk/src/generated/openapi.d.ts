/**
 * Generated from the OpenAPI document the API serves at GET /v1/openapi.json. Do not edit:
 * regenerate with `pnpm --filter @music/sdk types:update`.
 */

export interface paths {
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with email and password
         * @description Answers an access token (a JWT for `Authorization: Bearer`, valid `expiresIn` seconds) and a refresh token (single use, valid 30 days), with the user. The email is matched case-insensitively. After 10 failed attempts for one email within 15 minutes, every attempt for it (the right password included) is refused with 429 until the window ends.
         */
        post: operations["auth-login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for new tokens (the old one stops working)
         * @description Rotation: the answer carries a new refresh token and the one sent stops working at once. Presenting a refresh token that was already exchanged is taken as theft: its whole session is revoked (every token of it answers 401), so keep only the newest one.
         */
        post: operations["auth-refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End this session
         * @description Ends the session of the token sent: that access token and its refresh token answer 401 from now on, on every instance. Other sessions of the same user stay signed in.
         */
        post: operations["auth-logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in user (with an API key: the key’s owner)
         * @description The user the access token belongs to, as `GET /users/{userId}` shows it (with its `ETag`).
         */
        get: operations["auth-me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a link to set a new password (the same answer whether the email has an account)
         * @description New in 1.2. When the email has an account, a link to set a new password is mailed to it: it works once, for 30 minutes. The answer is 202 either way, in about the same time, so it tells nobody whether the email has an account. At most 5 requests a quarter hour per email and per client address (429 with `Retry-After`).
         */
        post: operations["auth-requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the token of a reset link; every session of the account ends
         * @description New in 1.2. Takes the token of a reset link (the part after `#token=`) and the new password. The link is then spent, with every other link of the account, and every session of the account ends: sign in with the new password.
         */
        post: operations["auth-resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users (admin only)
         * @description Admins only. Filter by `role`, find by `search`, order with `sort` (`username`, `email`, `createdAt`; default oldest first).
         *
         *     Oldest first unless `sort` says otherwise; ties are broken by id. `search` matches a substring of the username or the email, case-insensitively; `ids` (up to 100) answers only those users. `cursor` pages by cursor (see GET /songs).
         */
        get: operations["users-list"];
        put?: never;
        /**
         * Sign up, or (admin) create a user with any role
         * @description Public sign-up: without a token the new user gets role `user`. An admin’s token may set any `role`; anyone else asking for another role gets 403 (an unknown role is 422). Send an `Idempotency-Key` to retry safely: a repeat answers the first result again.
         */
        post: operations["users-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public names of users: yourself and owners of public playlists (admins: everyone)
         * @description Any signed-in caller. Resolves the names behind `userId`s (e.g. the owners of other listeners’ public playlists) in one call: pass up to 100 `ids` and `limit=100`. Making a playlist public shows its owner’s username with it. A malformed id in `ids` or more than 100 of them is a 400.
         *
         *     Only `id` and `username`, never the email or the role. An admin sees every user; anyone else sees themself and every user who owns at least one public playlist. Other users are simply absent (not an error), also when `ids` names them. Ordered by username, then id. `search` matches a substring of the username, case-insensitively.
         */
        get: operations["users-profiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user (yourself, or any as admin)
         * @description Yourself, or any user as an admin. Revalidate with `If-None-Match` to get 304 when unchanged.
         */
        get: operations["users-get"];
        /**
         * Replace a user (yourself, or any as admin; changing a role needs admin)
         * @description Full replace: `username`, `email` and `password` are required; `role` may be omitted (it stays). To keep your password, send the current one. Prefer `PATCH` (new in 1.2), which needs no password to rename. Send the `ETag` you read as `If-Match` so a concurrent change is not overwritten.
         *
         *     Changing your own email or password needs `currentPassword` (422 on it when missing or wrong; a wrong one counts as a failed sign-in, so it can reach 429); repeating your current `password` changes none. A new password ends every other session of the user. Answers 409 when the email belongs to another user, or when it would demote the last admin. A replace that changes nothing leaves `updatedAt` and the ETag as they were. With `If-Match`, a stale ETag is 412 and nothing changes.
         */
        put: operations["users-update"];
        post?: never;
        /**
         * Delete a user with their playlists and sessions
         * @description Yourself, or any user as an admin. Their sessions end at once.
         *
         *     An artist they were linked to stays, unlinked. The last admin cannot be deleted (409). With `If-Match`, a stale ETag is 412 and nothing changes.
         */
        delete: operations["users-delete"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a user (yourself, or any as admin; a role needs admin)
         * @description New in 1.2: send only what changes. Renaming needs no password; a new `email` or `password` for your own account needs `currentPassword`. An admin sets another user’s password without knowing theirs (every session of that user then ends). Send the `ETag` you read as `If-Match` so a concurrent change is not overwritten.
         *
         *     Only the fields given change: a rename needs no password. Changing your own email or password needs `currentPassword` (422 on it when missing or wrong; a wrong one counts as a failed sign-in, so it can reach 429). A new password ends every other session of the user (all of them when an admin sets it). 409 when the email belongs to another user or the change would demote the last admin; with `If-Match`, a stale ETag is 412.
         */
        patch: operations["users-patch"];
        trace?: never;
    };
    "/users/{userId}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a user's role (admin only)
         * @description New in 1.1: promotes or demotes a user without resending their other fields.
         *
         *     Changes the role and nothing else. Any other caller gets 403, whatever the id. Demoting the last admin is 409: there is always an admin. Setting the role a user already has changes nothing (`updatedAt` and the ETag stay). With `If-Match`, a stale ETag is 412.
         */
        put: operations["users-setRole"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a link for a user to set a new password (admin only)
         * @description New in 1.2: the admin’s way to let a user back in where no mail is set up. Answers the link of the console page where the user sets a new password, and when it stops working.
         *
         *     For when no mail is set up, or it does not arrive: hand the link to its user. It works once, for 30 minutes; setting the password ends every session of the user. Any other caller gets 403, whatever the id. API keys cannot make one.
         */
        post: operations["users-passwordResetLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your API keys, oldest first (admins: anyone’s, with `userId`)
         * @description `lastUsedAt` is recorded in batches (every 15 seconds on each instance), so it can trail a use made a moment ago on another instance.
         *
         *     Only a signed-in session manages keys: an API key gets 403.
         */
        get: operations["apiKeys-list"];
        put?: never;
        /**
         * Make an API key for a program (its token is shown this once)
         * @description Keep the `token` where the program runs: it is never shown again (only its `prefix`). A key with `catalogue:write` of an artist account writes that artist’s songs, an admin’s writes any; demote the owner and the key can do no more than the owner now can. No `Idempotency-Key`: a retried creation makes a second key (delete the one you did not keep).
         *
         *     The key acts as you, within its `scopes`, and never beyond what your role allows at the moment of each request. At most 100 keys an account (409 beyond). Only a signed-in session manages keys: an API key gets 403.
         */
        post: operations["apiKeys-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of your API keys (admins: anyone’s)
         * @description Everything but the token, which is never stored.
         *
         *     Only a signed-in session manages keys: an API key gets 403.
         */
        get: operations["apiKeys-get"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key: refused from the next request on, on every instance
         * @description The key is refused (401) from the next request on, on every instance.
         *
         *     Only a signed-in session manages keys: an API key gets 403.
         */
        delete: operations["apiKeys-delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/artists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List artists, ordered by name, then id
         * @description Any signed-in caller. `search` matches a substring of the name, case-insensitively; `ids` keeps only the artists it names (ids that name nothing are absent); filters combine. `sort` takes `name` and `createdAt` (default: by name). A malformed id in `ids`, more than 100 of them, or an unknown `sort` field is 400.
         *
         *     `ids` (up to 100 comma-separated UUIDs) answers only those artists, in the same order and pages: pass `limit=100` to get all of them in one call.
         */
        get: operations["artists-list"];
        put?: never;
        /**
         * Create an artist (admin only)
         * @description Admins only. `userId` links the artist to an account with role `artist`, which may then edit it and its songs. Send an `Idempotency-Key` to retry safely.
         */
        post: operations["artists-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/artists/{artistId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An artist
         * @description Any signed-in caller. Revalidate with `If-None-Match` to get 304 when unchanged.
         */
        get: operations["artists-get"];
        /**
         * Replace an artist (admin or its linked user; omitted fields become null)
         * @description Full replace: `name` is required and an omitted `bio` becomes null. Send the `ETag` you read as `If-Match` so a concurrent change is not overwritten.
         *
         *     Only admins may change `userId`; a linked user who omits it keeps the link.
         */
        put: operations["artists-replace"];
        post?: never;
        /**
         * Delete an artist (admin only); its songs stay, unlinked from it
         * @description Admins only. The artist’s songs stay, without this artist in their `artistIds`.
         */
        delete: operations["artists-delete"];
        options?: never;
        head?: never;
        /**
         * Change some fields of an artist (admin or its linked user)
         * @description Partial: only the fields sent change; `null` clears `bio` or `userId`. Send the `ETag` you read as `If-Match` so a concurrent change is not overwritten.
         *
         *     Only admins may change `userId`.
         */
        patch: operations["artists-update"];
        trace?: never;
    };
    "/artists/{artistId}/songs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The artist’s songs, ordered by title, then id
         * @description Any signed-in caller. Ordered by title, then id (there is no `sort`).
         *
         *     `expand=artists` adds each song’s artists; `cursor` pages by cursor (see GET /songs).
         */
        get: operations["artists-songs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/artists/{artistId}/songs/{songId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link a song to the artist (admin or its linked user; linking twice is fine)
         * @description Adds the artist at the end of the song’s `artistIds` (which changes the song’s `ETag`). Linking an already linked song is a 204 too.
         */
        post: operations["artists-linkSong"];
        /**
         * Unlink a song from the artist (admin or its linked user); 404 if not linked
         * @description Removes the artist from the song’s `artistIds`; the song stays.
         */
        delete: operations["artists-unlinkSong"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/songs/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole catalogue as one file, CSV or NDJSON, streamed
         * @description Any signed-in caller, or an API key with `catalogue:read`. The file is written as the songs are read, a thousand at a time, so it starts at once and the service holds no more than that in memory, whatever the size of the catalogue; gzip-compressed when `Accept-Encoding` allows. A song written during the export is in it if its id comes after the songs already written. Empty cells (CSV) and `null` (NDJSON) stand for no value. A failure once the file has begun cuts the connection: a file that does not end with a line break is incomplete.
         *
         *     Each song’s writable fields and its artists by name, in id order: what `POST /imports` reads back unchanged. Written as it is read, a thousand songs at a time.
         */
        get: operations["songs-export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/songs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List songs, ordered by title, then id
         * @description Any signed-in caller. Filters combine. `sort` takes `title`, `album`, `releaseYear`, `duration` and `createdAt` (default: by title).
         *
         *     `search` matches title, album and artist names (case-insensitive substring); `genre` matches case-insensitively; `isrc` finds the song with that ISRC; `artistId` keeps one artist’s songs; `ids` (up to 100 comma-separated UUIDs) only those songs. `expand=artists` adds each song’s artists. Paged by `page` (with `total`) or, with `cursor` (empty for the first page), by cursor: then `pagination` is `{ limit, nextCursor }` and pages stay exact under inserts.
         */
        get: operations["songs-list"];
        put?: never;
        /**
         * Create a song (admin, or an artist account for its own artists)
         * @description Every id in `artistIds` must name an artist (else 422 on `artistIds.N`). Send an `Idempotency-Key` to retry safely: a repeat answers the first result again.
         *
         *     An artist account’s `artistIds` must include an artist linked to it; omitted, it defaults to all of them.
         */
        post: operations["songs-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/songs/{songId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A song
         * @description Any signed-in caller. Revalidate with `If-None-Match` to get 304 when unchanged.
         *
         *     `expand=artists` adds the song’s artists (`artists`). The ETag is of the answer as sent: send `If-Match` with the tag of a read without `expand`.
         */
        get: operations["songs-get"];
        put?: never;
        post?: never;
        /**
         * Delete a song; it leaves every playlist and artist link
         * @description Gone from every playlist and artist. With `If-Match`, a stale ETag is 412 and nothing is deleted.
         */
        delete: operations["songs-delete"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a song (admin, or a user linked to one of its artists)
         * @description Partial: only the fields sent change; `null` clears `album`, `genre`, `releaseYear`, `isrc` or `externalId`. Send the `ETag` you read as `If-Match` so a concurrent change is not overwritten. There is no `PUT` on songs (405).
         *
         *     A given `artistIds` replaces the song’s artists, in its order.
         */
        patch: operations["songs-update"];
        trace?: never;
    };
    "/genres": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the genres in use, ordered by name (regardless of case), each with its number of songs
         * @description New in 1.1: the distinct genres of the catalogue, for a filter menu. Any signed-in caller. Pass a `name` to `GET /songs?genre=` to list its songs.
         *
         *     Genres are told apart case-insensitively, as the `genre` filter of `GET /songs` matches them: each is named by its most common spelling. `search` matches the name (case-insensitive substring).
         */
        get: operations["genres-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/playlists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List playlists (your own; admins: all, or one user’s)
         * @description `sort` takes `name` and `createdAt`. A malformed `userId`, `visibility` other than `public` or an unknown `sort` field is 400.
         *
         *     Without `visibility`: a non-admin gets their own playlists (`userId` naming anyone else is 403); an admin gets every playlist, or `userId`’s. With `visibility=public` (an extension, for browsing what others share): any signed-in caller gets only public playlists, every user’s or `userId`’s, never a private one (admins included). Oldest first unless `sort` says otherwise; ties are broken by id. `ids` (up to 100) answers only those playlists; without `userId` and `visibility` a non-admin gets their own and the public ones among them. `cursor` pages by cursor (see GET /songs).
         */
        get: operations["playlists-list"];
        put?: never;
        /**
         * Create a playlist (admins may create one for another user with `userId`)
         * @description The caller owns the new playlist (admins may create one for `userId`). `songIds` sets the initial songs in order; each must name a song, once. Send an `Idempotency-Key` to retry safely.
         */
        post: operations["playlists-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/playlists/{playlistId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A playlist (yours, or any public one)
         * @description Your own playlists, and any public one. Revalidate with `If-None-Match` to get 304 when unchanged.
         */
        get: operations["playlists-get"];
        /**
         * Replace a playlist (owner only)
         * @description Send the `ETag` you read as `If-Match` so a concurrent change (another device reordering the same playlist) is not overwritten.
         *
         *     Omitted `description`/`isPublic` reset to null/false; a given `songIds` replaces the order, an omitted one leaves the songs as they are. A replace that changes nothing leaves `updatedAt` and the ETag as they were. With `If-Match`, a stale ETag is 412 and nothing changes.
         */
        put: operations["playlists-replace"];
        post?: never;
        /**
         * Delete a playlist (owner only); the songs stay
         * @description Owner only. The songs stay in the catalogue.
         *
         *     With `If-Match`, a stale ETag is 412 and nothing is deleted.
         */
        delete: operations["playlists-delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/playlists/{playlistId}/songs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The playlist’s songs in playlist order
         * @description The full song records of `songIds`, a page at a time. Your own playlists, and any public one.
         *
         *     Always in playlist order (there is no `sort`): reorder with PUT /playlists/{playlistId}. `expand=artists` adds each song’s artists; `cursor` pages by cursor (see GET /songs).
         */
        get: operations["playlists-songs"];
        put?: never;
        /**
         * Append a song to the playlist (owner only); 409 if it is already there
         * @description Owner only. Send an `Idempotency-Key` to retry safely: a replayed append answers 204 again instead of 409.
         *
         *     Two concurrent adds of one song: one 204, one 409. A playlist holds at most 10000 songs (409 beyond). `If-Match` is checked against the playlist’s ETag: stale is 412, nothing changes.
         */
        post: operations["playlists-addSong"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/playlists/{playlistId}/songs/{songId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a song from the playlist (owner only); the song stays in the system
         * @description Owner only. The song stays in the catalogue and in other playlists.
         *
         *     404 when the song is not in the playlist. `If-Match` is checked against the playlist’s ETag: stale is 412, nothing changes.
         */
        delete: operations["playlists-removeSong"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit trail: every write, newest first (admin only)
         * @description Filters combine: `targetType` and `targetId` (the record written), `actorId` (the user who wrote), `action`, `since` (inclusive) and `until` (exclusive). A page holds `limit` events (1 to 100, default 20); follow `nextCursor` until it is null. `changes` holds each changed field as `{ "before", "after" }` (a creation from null, a deletion to null; a song linked to or unlinked from an artist, or added to or removed from a playlist, as `songId`); a password appears only as the string `"changed"`. An update that changes only the role is `user.role_changed`, only the password `user.password_changed`; a playlist replace that only reorders its songs is `playlist.songs_reordered`. `actor.userId` is null for an anonymous sign-up; a password reset confirmed with a mailed link names the account’s own user. Events are removed after AUDIT_RETENTION_DAYS days (365 by default).
         *
         *     One event per committed write, recorded in the write’s own transaction: a refused or failed write, or one that changed nothing, records none. Actions: `user.created`, `user.updated`, `user.role_changed`, `user.password_changed`, `user.password_reset`, `user.reset_link_created`, `user.deleted`, `artist.created`, `artist.updated`, `artist.deleted`, `artist.song_linked`, `artist.song_unlinked`, `song.created`, `song.updated`, `song.deleted`, `playlist.created`, `playlist.updated`, `playlist.songs_reordered`, `playlist.song_added`, `playlist.song_removed`, `playlist.deleted`, `api_key.created`, `api_key.deleted`, `webhook.created`, `webhook.updated`, `webhook.deleted`. Paged by `cursor` (the previous page’s `nextCursor`), not by page number.
         */
        get: operations["auditEvents-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The change feed: every change to the catalogue, in commit order
         * @description A reader starts without `after` (from the oldest event kept) and then passes each answer’s `nextCursor` as `after`: it sees every event once and none twice, in the order the writes committed, whichever instance answers, also while writes commit in another order than they began. `nextCursor` is never null: when it is the cursor sent, there is nothing new yet (ask again later with it); a page can be empty with a new cursor when the read only passed events the caller may not see (read on). `types` filters (`song.created,playlist.*`); `limit` is 1 to 1000 (default 100). Anyone signed in reads song and artist events; playlist events of their own and of public playlists (a public playlist someone made private shows only `{id, isPublic: false}`); admins read every event, `user.*` included. Linking a song to an artist or unlinking it is a `song.updated`; adding, removing or reordering a playlist’s songs a `playlist.updated`. A write that changes other records names them too: a deleted song is a `playlist.updated` for each playlist that held it, a deleted artist a `song.updated` for each of its songs, a deleted user a `playlist.deleted` for each of their playlists and an `artist.updated` for an artist they managed. Events are kept EVENT_RETENTION_DAYS days (30 by default); a cursor older than that is answered 410 `GONE`: read again from the start.
         *
         *     Each committed write adds its events, in its own transaction: a refused or failed write, or one that changed nothing, adds none. Types: `song.created`, `song.updated`, `song.deleted`, `artist.created`, `artist.updated`, `artist.deleted`, `playlist.created`, `playlist.updated`, `playlist.deleted`, `user.created`, `user.updated`, `user.deleted`. Read on by passing `nextCursor` as `after`.
         */
        get: operations["events-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your webhooks, oldest first (admins: anyone’s, with `userId`)
         * @description Without their secrets, which are shown only when a webhook is made.
         */
        get: operations["webhooks-list"];
        put?: never;
        /**
         * Make a webhook: events of the types asked for are POSTed to its URL (its secret is shown this once)
         * @description Keep the `secret`: it is never shown again. Each delivery is a POST of one event as JSON, the same object the change feed (`GET /events`) gives, with the headers `webhook-id` (the delivery’s id: the same on every attempt, so deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the secret’s bytes), as Standard Webhooks say: their libraries verify it. Answer any 2xx within 10 seconds. The first attempt comes within seconds of the write; a failed one (any other status, or no answer within 10 s) is retried after each wait of WEBHOOK_RETRY_SECONDS (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h by default: about 27 hours), then the delivery is `failed`. After WEBHOOK_MAX_FAILURES failed attempts in a row (50 by default) the webhook is disabled (`enabled: false`, `disabledReason`) until its owner enables it again. A webhook is sent the events its owner may read at the time (as `GET /events` would show them), from its creation on; `user.*` events are for admins only. The URL must be `https:` (`http:` only where the operator set WEBHOOK_ALLOW_HTTP), carry no user name or password, and resolve only to public addresses: link-local and cloud metadata addresses never, loopback and private ones only where the operator set WEBHOOK_ALLOW_PRIVATE. It is checked again as each delivery connects, and redirects are never followed.
         *
         *     Each event is sent as JSON, the change feed’s representation of it, signed as Standard Webhooks say (`webhook-id`, `webhook-timestamp`, `webhook-signature`). It is sent the events its owner may read, from its creation on. At most 25 webhooks an account (409 beyond).
         */
        post: operations["webhooks-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of your webhooks (admins: anyone’s)
         * @description `failures` counts failed attempts in a row; a success sets it back to 0.
         */
        get: operations["webhooks-get"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook and its deliveries: nothing more is sent
         * @description Its deliveries go with it, and nothing more is sent, also no retry already queued.
         */
        delete: operations["webhooks-delete"];
        options?: never;
        head?: never;
        /**
         * Change a webhook’s URL, types or description; pause it, or enable it again
         * @description Fields left out stay as they are. `enabled: true` enables a disabled webhook again (its failures in a row start from 0; events written while it was disabled are not sent); `enabled: false` pauses it. The URL must be `https:` (`http:` only where the operator set WEBHOOK_ALLOW_HTTP), carry no user name or password, and resolve only to public addresses: link-local and cloud metadata addresses never, loopback and private ones only where the operator set WEBHOOK_ALLOW_PRIVATE. It is checked again as each delivery connects, and redirects are never followed.
         */
        patch: operations["webhooks-update"];
        trace?: never;
    };
    "/webhooks/{webhookId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook’s deliveries, newest first: status, attempts, the last answer
         * @description One delivery per event (and per test ping): its status, how many attempts were made, when the next is due, and the last attempt’s answer: its status and the first 1 KiB of its body (no more is kept), or why there was none. Pages of `limit` (1 to 100), newest first.
         *
         *     Paged by `cursor` (the previous page’s `nextCursor`), not by page number.
         */
        get: operations["webhooks-deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhookId}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again, now (same body, same `webhook-id`)
         * @description For a delivery that `succeeded` or `failed`: one more attempt, within seconds, with the same body and `webhook-id`, also to a disabled webhook. Its outcome shows in the deliveries list.
         *
         *     One attempt, made within seconds. A delivery still pending is already being sent: 409.
         */
        post: operations["webhooks-retryDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhookId}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event (`webhook.ping`) now, to see the URL and the signature work
         * @description A `webhook.ping` event (`data`: the webhook’s id and URL), signed like every delivery, sent within seconds, even to a disabled webhook: to check the receiver and its verification.
         *
         *     Sent even to a disabled webhook; it shows among the deliveries.
         */
        post: operations["webhooks-ping"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import songs from a CSV or NDJSON file (up to 100 MB): 202, then follow it
         * @description Admins import any song; an artist account imports the songs of its own artists (naming only them, changing only its own songs). Each record is a whole song: a field it leaves out (an empty cell) is null. A record with an `isrc` updates the song with that ISRC, else one with an `externalId` updates the song with that externalId, else it creates a song: importing a file again changes nothing (`unchanged`), and a corrected file updates only what changed. Artists are given by name and matched exactly; a name no artist has makes a new artist (admins; an artist account names its own only); a name two artists share is an error of its line (give `artistIds` then, in NDJSON). Every write is audited and in the change feed, as the API’s own. A record that fails is counted and reported with its line and field; the others are applied. With `dryRun=true` every record is checked and counted as it would be applied, and nothing is written. The import survives restarts of the service: it goes on where it was. What `GET /songs/export` writes, this reads back unchanged.
         *
         *     The body is the file itself (`Content-Type: text/csv` or `application/x-ndjson`). It is taken whole, then read by a worker; follow `GET /imports/{importId}`.
         */
        post: operations["imports-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/imports/{importId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An import: where it is, its counts, its errors by line
         * @description The account that sent it, and admins. `counts` grow as records are applied; `errors` lists the first 1000 failed records by line. A CSV whose header names an unknown column, or that cannot be parsed on, ends `failed` with `failure` saying why (records before it stay applied).
         */
        get: operations["imports-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find songs, artists, albums and playlists as you type
         * @description New in 1.2: for a search box that shows results as the user types. Any signed-in caller (an API key needs `catalogue:read`; without `playlists:read` it finds public playlists only). Ask only for the kinds you show (`types`), and open the full list (`GET /songs?search=…&sort=relevance`) when the user presses Enter. A term without any letter or digit finds nothing.
         *
         *     The best few of each kind, best first: names that are the term, then names starting with it, then names with a word starting with it, then other matches (for songs: the album or an artist), each by popularity (playlists holding the song; for an artist, its songs), then name; then the matches with a typo. Playlists are the public ones and your own. A finder, not a list: no pages.
         */
        get: operations["search-find"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: may this instance be sent requests?
         * @description For load balancers. 200 when this instance and its database answer; 503 when the database is unreachable or the instance is shutting down (it goes on serving other requests for a short delay, so a balancer checking this has time to stop sending it new ones).
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: does the process answer?
         * @description For process supervisors. 200 whenever the process can answer, whatever the state of the database or a shutdown in progress; restart the process only when this fails.
         */
        get: operations["healthLive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The OpenAPI 3.1 description of `/v1`, for generating clients. It carries an `ETag`: revalidate a cached copy with `If-None-Match` (304 when unchanged).
         */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Browsable reference of this document
         * @description An HTML page (Swagger UI, served by the API itself) reading `/v1/openapi.json`.
         */
        get: operations["docs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @enum {string} */
        Role: "user" | "artist" | "admin";
        /**
         * @description What an API key may do: `catalogue:*` songs, artists and genres; `playlists:*` playlists; `users:*` accounts and profiles; `events:read` the audit trail (admins) and the change feed; `webhooks:write` webhooks. `:read` covers GETs, `:write` everything else.
         * @enum {string}
         */
        Scope: "catalogue:read" | "catalogue:write" | "playlists:read" | "playlists:write" | "users:read" | "users:write" | "events:read" | "webhooks:write";
        TokenResponse: {
            /** @description JWT for `Authorization: Bearer`, valid 24 hours */
            accessToken: string;
            /** @description Opaque, single use, valid 30 days */
            refreshToken: string;
            /** @constant */
            tokenType: "Bearer";
            /**
             * Format: int64
             * @description Seconds until the access token expires
             */
            expiresIn: number;
            user: components["schemas"]["User"];
        };
        User: {
            /** Format: uuid */
            id: string;
            username: string;
            /** Format: email */
            email: string;
            role: components["schemas"]["Role"];
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            updatedAt: string;
        };
        UserList: {
            data: components["schemas"]["User"][];
            pagination: components["schemas"]["Pagination"] | components["schemas"]["CursorPagination"];
        };
        Pagination: {
            /** Format: int64 */
            page: number;
            /** Format: int32 */
            limit: number;
            /**
             * Format: int32
             * @description Number of all matching items
             */
            total: number;
        };
        /** @description The paging of a list read with `cursor` */
        CursorPagination: {
            /** Format: int32 */
            limit: number;
            /** @description The next page’s `cursor`; null on the last page */
            nextCursor: string | null;
        };
        ProfileList: {
            data: components["schemas"]["Profile"][];
            pagination: components["schemas"]["Pagination"] | components["schemas"]["CursorPagination"];
        };
        /** @description A user’s public name: never their email or role */
        Profile: {
            /** Format: uuid */
            id: string;
            username: string;
        };
        PasswordResetLink: {
            /**
             * Format: uri
             * @description The console’s page where the user sets a new password; works once
             */
            url: string;
            /**
             * Format: date-time
             * @description When the link stops working (30 minutes after it was made)
             * @example 2026-11-22T12:30:00Z
             */
            expiresAt: string;
        };
        CreatedApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            scopes: components["schemas"]["Scope"][];
            /** @description The token’s first 12 characters, to tell keys apart */
            prefix: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /** @description When it stops working; null: never */
            expiresAt: string | null;
            /** @description When it was last used (recorded in batches: up to 15 seconds behind); null: never */
            lastUsedAt: string | null;
            /** @description The key itself (`mc_…`): shown this once, stored only as a hash. Send it as `Authorization: Bearer mc_…`. */
            token: string;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            scopes: components["schemas"]["Scope"][];
            /** @description The token’s first 12 characters, to tell keys apart */
            prefix: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /** @description When it stops working; null: never */
            expiresAt: string | null;
            /** @description When it was last used (recorded in batches: up to 15 seconds behind); null: never */
            lastUsedAt: string | null;
        };
        ArtistList: {
            data: components["schemas"]["Artist"][];
            pagination: components["schemas"]["Pagination"] | components["schemas"]["CursorPagination"];
        };
        Artist: {
            /** Format: uuid */
            id: string;
            name: string;
            bio: string | null;
            /** @description The account managing this artist (role `artist`) */
            userId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            updatedAt: string;
        };
        SongList: {
            data: components["schemas"]["SongRead"][];
            pagination: components["schemas"]["Pagination"] | components["schemas"]["CursorPagination"];
        };
        SongRead: {
            /** Format: uuid */
            id: string;
            title: string;
            album: string | null;
            genre: string | null;
            /**
             * Format: int32
             * @description Length in seconds, 1 to 86400
             */
            duration: number;
            releaseYear: number | null;
            /**
             * @description The recording’s ISRC: 12 characters, upper case, no hyphens; unique
             * @example USRC17607839
             */
            isrc: string | null;
            /**
             * @description The song’s id in the system it came from (a label’s catalogue number); unique
             * @example LBL-2024-0042
             */
            externalId: string | null;
            /** @description In the order given; links added later go last */
            artistIds: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            updatedAt: string;
            /** @description With `expand=artists` only: the song’s artists, in `artistIds` order */
            artists?: components["schemas"]["Artist"][];
        };
        Song: {
            /** Format: uuid */
            id: string;
            title: string;
            album: string | null;
            genre: string | null;
            /**
             * Format: int32
             * @description Length in seconds, 1 to 86400
             */
            duration: number;
            releaseYear: number | null;
            /**
             * @description The recording’s ISRC: 12 characters, upper case, no hyphens; unique
             * @example USRC17607839
             */
            isrc: string | null;
            /**
             * @description The song’s id in the system it came from (a label’s catalogue number); unique
             * @example LBL-2024-0042
             */
            externalId: string | null;
            /** @description In the order given; links added later go last */
            artistIds: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            updatedAt: string;
        };
        GenreList: {
            data: components["schemas"]["Genre"][];
            pagination: components["schemas"]["Pagination"] | components["schemas"]["CursorPagination"];
        };
        Genre: {
            /** @description The genre, as most of its songs spell it */
            name: string;
            /**
             * Format: int64
             * @description How many songs have this genre (letter case aside): what `GET /songs?genre=` totals
             */
            songCount: number;
        };
        PlaylistList: {
            data: components["schemas"]["Playlist"][];
            pagination: components["schemas"]["Pagination"] | components["schemas"]["CursorPagination"];
        };
        Playlist: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The owner
             */
            userId: string;
            name: string;
            description: string | null;
            isPublic: boolean;
            /** @description The songs in playlist order */
            songIds: string[];
            /**
             * Format: int32
             * @description songIds.length
             */
            songCount: number;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            updatedAt: string;
        };
        AuditEventPage: {
            data: components["schemas"]["AuditEvent"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page */
            nextCursor: string | null;
        };
        AuditEvent: {
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description When the write committed, on the database’s clock
             * @example 2026-11-22T12:00:00Z
             */
            at: string;
            /** @description Who made the write */
            actor: {
                /** @description The user who wrote; null for an anonymous sign-up */
                userId: string | null;
                /** @description The API key the request was made with, if any */
                apiKeyId: string | null;
            };
            /** @enum {string} */
            action: "user.created" | "user.updated" | "user.role_changed" | "user.password_changed" | "user.password_reset" | "user.reset_link_created" | "user.deleted" | "artist.created" | "artist.updated" | "artist.deleted" | "artist.song_linked" | "artist.song_unlinked" | "song.created" | "song.updated" | "song.deleted" | "playlist.created" | "playlist.updated" | "playlist.songs_reordered" | "playlist.song_added" | "playlist.song_removed" | "playlist.deleted" | "api_key.created" | "api_key.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted";
            /** @description The record written */
            target: {
                /** @enum {string} */
                type: "user" | "artist" | "song" | "playlist" | "api_key" | "webhook";
                /** Format: uuid */
                id: string;
            };
            /** @description Each changed field with its values before and after; a password only as `changed` */
            changes: {
                [key: string]: components["schemas"]["AuditChange"];
            };
            /** @description The request’s `X-Request-Id` */
            requestId: string;
            /** @description The client’s network address */
            address: string;
        };
        AuditChange: {
            before: unknown;
            after: unknown;
        } | "changed";
        ChangeEventPage: {
            data: components["schemas"]["ChangeEvent"][];
            /** @description Pass as `after` to read on; never null. The cursor you sent, back: nothing new yet (ask again later). A new cursor with an empty `data`: the read passed only events you may not see; read on */
            nextCursor: string;
        };
        ChangeEvent: {
            /**
             * Format: uuid
             * @description The event’s own id: the same on every read of it
             */
            id: string;
            /** @enum {string} */
            type: "song.created" | "song.updated" | "song.deleted" | "artist.created" | "artist.updated" | "artist.deleted" | "playlist.created" | "playlist.updated" | "playlist.deleted" | "user.created" | "user.updated" | "user.deleted";
            /**
             * Format: date-time
             * @description When the write was made, on the database’s clock
             * @example 2026-11-22T12:00:00Z
             */
            at: string;
            /** @description The record that changed */
            resource: {
                /** @enum {string} */
                type: "song" | "artist" | "playlist" | "user";
                /** Format: uuid */
                id: string;
            };
            /** @description The record as its own `GET` shows it after the write (for `*.deleted`, as it was just before); `{id, isPublic: false}` only, for a playlist that someone else made private */
            data: {
                [key: string]: unknown;
            };
        };
        CreatedWebhook: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description Whose webhook it is: it is sent what they may read
             */
            userId: string;
            url: string;
            events: string[];
            description: string | null;
            /** @description False once paused by its owner, or after too many failed deliveries in a row */
            enabled: boolean;
            /**
             * Format: int64
             * @description Failed delivery attempts in a row
             */
            failures: number;
            disabledAt: string | null;
            /** @description Why it is disabled, in words; null while enabled */
            disabledReason: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            updatedAt: string;
            /** @description Signs every delivery (`whsec_…`, as Standard Webhooks write it): shown this once. Verify the `webhook-signature` header with it. */
            secret: string;
        };
        Webhook: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description Whose webhook it is: it is sent what they may read
             */
            userId: string;
            url: string;
            events: string[];
            description: string | null;
            /** @description False once paused by its owner, or after too many failed deliveries in a row */
            enabled: boolean;
            /**
             * Format: int64
             * @description Failed delivery attempts in a row
             */
            failures: number;
            disabledAt: string | null;
            /** @description Why it is disabled, in words; null while enabled */
            disabledReason: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            updatedAt: string;
        };
        WebhookDeliveryPage: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page */
            nextCursor: string | null;
        };
        WebhookDelivery: {
            /**
             * Format: uuid
             * @description Sent as `webhook-id` on every attempt of this delivery: receivers deduplicate by it
             */
            id: string;
            /**
             * Format: uuid
             * @description The change-feed event sent (a test ping has its own id)
             */
            eventId: string;
            /** @description Its type; `webhook.ping` for a test ping */
            eventType: string;
            /**
             * @description `pending`: an attempt is due or under way; `failed`: every retry failed
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            /** Format: int64 */
            attempts: number;
            /** @description When the next attempt is due (pending only) */
            nextAttemptAt: string | null;
            lastAttemptAt: string | null;
            /** @description The last attempt’s HTTP status; null when there was no answer */
            responseStatus: number | null;
            /** @description The first 1 KiB of the last answer’s body (no more is kept) */
            responseBody: string | null;
            /** @description Why the last attempt got no answer (or was not made) */
            error: string | null;
            durationMs: number | null;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
        };
        Import: {
            /** Format: uuid */
            id: string;
            /**
             * @description `queued` until a worker takes it, `running`, then `succeeded` (every record read; some may have failed: see `counts.failed`) or `failed` (the file could not be read on: see `failure`)
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed";
            /** @description Only validated: nothing was written */
            dryRun: boolean;
            /** @enum {string} */
            format: "csv" | "ndjson";
            /** @description Records so far: read, and what each did (would do, in a dry run) */
            counts: {
                /** Format: int64 */
                read: number;
                /** Format: int64 */
                created: number;
                /** Format: int64 */
                updated: number;
                /** Format: int64 */
                unchanged: number;
                /** Format: int64 */
                failed: number;
            };
            /** @description Why records failed, by line: the first 1000 (`counts.failed` counts them all) */
            errors: components["schemas"]["ImportError"][];
            /** @description Why the import stopped, when `failed` */
            failure: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T12:00:00Z
             */
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
        };
        ImportError: {
            /**
             * Format: int64
             * @description The line of the file the record starts on (the header is line 1 of a CSV)
             */
            line: number;
            /** @description The field at fault; empty for the record as a whole */
            field: string;
            message: string;
        };
        /** @description The kinds asked for, each best first: not a list, so no pagination */
        SearchResult: {
            songs?: components["schemas"]["Song"][];
            artists?: components["schemas"]["Artist"][];
            albums?: components["schemas"]["Album"][];
            playlists?: components["schemas"]["Playlist"][];
        };
        /** @description The songs sharing an album name (letter case and accents aside) and a first artist */
        Album: {
            /** @description As most of its songs spell it */
            name: string;
            /** @description Every artist of its songs, the first artist first (at most 1,000) */
            artistIds: string[];
            /** Format: int64 */
            songCount: number;
        };
        LoginRequest: {
            /**
             * Format: email
             * @description Email address; compared and stored trimmed and lower-cased
             * @example ada@example.com
             */
            email: string;
            /** Format: password */
            password: string;
        };
        RefreshRequest: {
            /** @description The refresh token from the last sign-in or refresh */
            refreshToken: string;
        };
        PasswordResetRequest: {
            /**
             * Format: email
             * @description The account’s email; the answer is the same whether it has one or not
             * @example ada@example.com
             */
            email: string;
        };
        PasswordResetConfirm: {
            /** @description The token of the reset link (after `#token=`) */
            token: string;
            /**
             * Format: password
             * @description The new password, 8 to 128 characters
             */
            password: string;
        };
        UserCreate: {
            /** @description 1 to 50 characters after trimming; no control or invisible formatting characters */
            username: string;
            /**
             * Format: email
             * @description Email address; compared and stored trimmed and lower-cased
             * @example ada@example.com
             */
            email: string;
            /**
             * Format: password
             * @description 8 to 128 characters
             */
            password: string;
            /** @description Defaults to `user`; other roles need an admin */
            role?: components["schemas"]["Role"];
        };
        UserUpdate: {
            /** @description 1 to 50 characters after trimming; no control or invisible formatting characters */
            username: string;
            /**
             * Format: email
             * @description Email address; compared and stored trimmed and lower-cased
             * @example ada@example.com
             */
            email: string;
            /**
             * Format: password
             * @description 8 to 128 characters
             */
            password: string;
            /** @description Defaults to `user`; other roles need an admin */
            role?: components["schemas"]["Role"];
            /**
             * Format: password
             * @description Your password now: required to change your own email or password (admins too, on their own account)
             */
            currentPassword?: string;
        };
        UserPatch: {
            /** @description 1 to 50 characters after trimming; no control or invisible formatting characters */
            username?: string;
            /**
             * Format: email
             * @description Email address; compared and stored trimmed and lower-cased
             * @example ada@example.com
             */
            email?: string;
            /**
             * Format: password
             * @description 8 to 128 characters
             */
            password?: string;
            /**
             * Format: password
             * @description Your password now: required to change your own email or password (admins too, on their own account)
             */
            currentPassword?: string;
            /** @description Admins only (others: the role they have, or 403) */
            role?: components["schemas"]["Role"];
        };
        UserRoleUpdate: {
            role: components["schemas"]["Role"];
        };
        ApiKeyCreate: {
            /** @description 1 to 100 characters: what the key is for */
            name: string;
            scopes: components["schemas"]["Scope"][];
            /**
             * Format: date-time
             * @description When the key stops working (a future date-time); omitted: never
             */
            expiresAt?: string;
        };
        ArtistCreate: {
            /** @description 1 to 200 characters after trimming */
            name: string;
            /** @description Up to 2000 characters, or null */
            bio?: string | null;
            /** @description A user with role `artist` who manages this artist, or null; set by admins only */
            userId?: string | null;
        };
        ArtistUpdate: {
            /** @description 1 to 200 characters after trimming */
            name: string;
            /** @description Up to 2000 characters, or null */
            bio?: string | null;
            /** @description A user with role `artist` who manages this artist, or null; set by admins only */
            userId?: string | null;
        };
        ArtistPatch: {
            /** @description 1 to 200 characters after trimming */
            name?: string;
            /** @description Up to 2000 characters, or null */
            bio?: string | null;
            /** @description A user with role `artist` who manages this artist, or null; set by admins only */
            userId?: string | null;
        };
        SongCreate: {
            /** @description 1 to 200 characters after trimming */
            title: string;
            /** @description Up to 200 characters, or null */
            album?: string | null;
            /** @description Up to 50 characters, or null */
            genre?: string | null;
            /**
             * Format: int32
             * @description Length in seconds, 1 to 86400
             */
            duration: number;
            releaseYear?: number | null;
            /** @description The recording’s ISRC, or null: 12 characters (hyphens and spaces dropped, upper-cased); no two songs share one */
            isrc?: string | null;
            /** @description The song’s id in the system it came from, or null: 1 to 200 characters; no two songs share one (an import updates by it) */
            externalId?: string | null;
            /** @description Unique ids of existing artists, in order */
            artistIds?: string[];
        };
        SongPatch: {
            /** @description 1 to 200 characters after trimming */
            title?: string;
            /** @description Up to 200 characters, or null */
            album?: string | null;
            /** @description Up to 50 characters, or null */
            genre?: string | null;
            /**
             * Format: int32
             * @description Length in seconds, 1 to 86400
             */
            duration?: number;
            releaseYear?: number | null;
            /** @description The recording’s ISRC, or null: 12 characters (hyphens and spaces dropped, upper-cased); no two songs share one */
            isrc?: string | null;
            /** @description The song’s id in the system it came from, or null: 1 to 200 characters; no two songs share one (an import updates by it) */
            externalId?: string | null;
            /** @description Replaces the song’s artists, in this order */
            artistIds?: string[];
        };
        PlaylistCreate: {
            /** @description 1 to 100 characters after trimming */
            name: string;
            /** @description Up to 1000 characters, or null */
            description?: string | null;
            /** @description Readable by every signed-in user; default false */
            isPublic?: boolean;
            /** @description Unique ids of existing songs, in playlist order */
            songIds?: string[];
            /**
             * Format: uuid
             * @description The owner (admins only; default: yourself)
             */
            userId?: string;
        };
        PlaylistUpdate: {
            /** @description 1 to 100 characters after trimming */
            name: string;
            /** @description Up to 1000 characters, or null */
            description?: string | null;
            /** @description Readable by every signed-in user; default false */
            isPublic?: boolean;
            /** @description Unique ids of existing songs, in playlist order */
            songIds?: string[];
        };
        PlaylistSongAdd: {
            /**
             * Format: uuid
             * @description The song to append (any letter case)
             */
            songId: string;
        };
        WebhookCreate: {
            /**
             * @description Where events are POSTed: an `https:` URL (`http:` only where the service allows it) whose host resolves to public addresses only (checked by the service, and again at each delivery)
             * @example https://hooks.example.com/music
             */
            url: string;
            /**
             * @description The event types to send (checked by the service): `song.created`, `song.updated`, `song.deleted`, `artist.created`, `artist.updated`, `artist.deleted`, `playlist.created`, `playlist.updated`, `playlist.deleted`, `user.created`, `user.updated`, `user.deleted`; `song.*` stands for every type of songs. `user.*` events are for admins only.
             * @example [
             *       "song.*",
             *       "artist.created"
             *     ]
             */
            events: string[];
            /** @description Up to 500 characters: what it is for */
            description?: string;
        };
        WebhookUpdate: {
            /**
             * @description Where events are POSTed: an `https:` URL (`http:` only where the service allows it) whose host resolves to public addresses only (checked by the service, and again at each delivery)
             * @example https://hooks.example.com/music
             */
            url?: string;
            /**
             * @description The event types to send (checked by the service): `song.created`, `song.updated`, `song.deleted`, `artist.created`, `artist.updated`, `artist.deleted`, `playlist.created`, `playlist.updated`, `playlist.deleted`, `user.created`, `user.updated`, `user.deleted`; `song.*` stands for every type of songs. `user.*` events are for admins only.
             * @example [
             *       "song.*",
             *       "artist.created"
             *     ]
             */
            events?: string[];
            description?: string | null;
            /** @description `true` enables it again (its failures in a row start from 0); `false` pauses it */
            enabled?: boolean;
        };
        /** @description Every error but a validation failure. `code` is stable; `message` may change. A 422 is a `ValidationError` instead. */
        ApiError: {
            /**
             * @description Stable code to branch on; the HTTP status follows from it
             * @enum {string}
             */
            code: "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "GONE" | "PRECONDITION_FAILED" | "PAYLOAD_TOO_LARGE" | "TOO_MANY_REQUESTS" | "INTERNAL_SERVER_ERROR" | "SERVICE_UNAVAILABLE";
            /** @description For humans; branch on `code` */
            message: string;
        };
        /** @description The same as `ApiError`: kept for clients generated from version 1.1. */
        Error: components["schemas"]["ApiError"];
        /** @description A 422: the body (or the `Idempotency-Key`) failed validation; `errors` names each field. */
        ValidationError: {
            /** @enum {string} */
            code: "VALIDATION_FAILED";
            /** @description For humans; branch on `code` */
            message: string;
            /** @description The fields that failed, the first 100 at most */
            errors: {
                /** @description Dotted path of the body field (e.g. `artistIds.1`), or `Idempotency-Key` */
                field: string;
                message: string;
            }[];
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "degraded" | "draining";
            /** @enum {string} */
            database: "ok" | "unavailable";
        };
        Liveness: {
            /** @enum {string} */
            status: "ok";
        };
    };
    responses: {
        /** @description Accepted: it goes on in the background. No body. */
        Accepted: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Done; no body */
        NoContent: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Done; no body */
        NoContentReplayable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Not modified: the `ETag` sent in `If-None-Match` is still current. No body: the representation is the one the client stored with that `ETag`, which stays valid. */
        NotModified: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                ETag: components["headers"]["ETag"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Not modified: the `ETag` sent in `If-None-Match` is still current. No body: the representation is the one the client stored with that `ETag`, which stays valid. */
        NotModifiedUnmetered: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                ETag: components["headers"]["ETag"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `sort` names an unknown field or one field twice; the body is not a JSON object (or not `application/json`); `If-Match` or `If-None-Match` is not `*` or a list of entity tags */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "BAD_REQUEST",
                 *       "message": "Malformed request"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `sort` names an unknown field or one field twice; the body is not a JSON object (or not `application/json`); `If-Match` or `If-None-Match` is not `*` or a list of entity tags */
        BadRequestUnmetered: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "BAD_REQUEST",
                 *       "message": "Malformed request"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Token missing, malformed, expired or revoked: sign in (or refresh) and retry */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "UNAUTHORIZED",
                 *       "message": "Token missing, malformed, expired or revoked"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Signed in, but not allowed (role or ownership) */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "WWW-Authenticate": components["headers"]["InsufficientScope"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "FORBIDDEN",
                 *       "message": "Signed in, but not allowed (role or ownership)"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description No such resource (or a malformed id) */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "NOT_FOUND",
                 *       "message": "No such resource (or a malformed id)"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Conflicts with the current state */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "CONFLICT",
                 *       "message": "Conflicts with the current state"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description What the request points at is no longer kept (a change-feed cursor older than the retention): start again */
        Gone: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "GONE",
                 *       "message": "What the request points at is no longer kept (a change-feed cursor older than the retention)"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description `If-Match` does not match the current `ETag`: nothing changed. Read the resource again, reapply the change, retry */
        PreconditionFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "PRECONDITION_FAILED",
                 *       "message": "If-Match does not match the current ETag"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Body over 1 MiB */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "PAYLOAD_TOO_LARGE",
                 *       "message": "Body over 1 MiB"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Body fields failed validation (an unknown field included); `errors` names each */
        ValidationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "VALIDATION_FAILED",
                 *       "message": "The request body failed validation",
                 *       "errors": [
                 *         {
                 *           "field": "name",
                 *           "message": "Required"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description Over the request budget: wait `Retry-After` seconds */
        TooManyRequests: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "TOO_MANY_REQUESTS",
                 *       "message": "Over the request budget"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Unexpected server error, logged with the request id: quote `X-Request-Id` when reporting it */
        InternalServerError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "INTERNAL_SERVER_ERROR",
                 *       "message": "Unexpected server error, logged with the request id"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Unexpected server error, logged with the request id: quote `X-Request-Id` when reporting it */
        InternalServerErrorUnmetered: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "INTERNAL_SERVER_ERROR",
                 *       "message": "Unexpected server error, logged with the request id"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The database is unavailable: retry after `Retry-After` seconds */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "SERVICE_UNAVAILABLE",
                 *       "message": "The database is unavailable"
                 *     }
                 */
                "application/json": components["schemas"]["ApiError"];
            };
        };
    };
    parameters: {
        /**
         * @description Makes a retry safe: 1 to 255 printable ASCII characters (a fresh UUID per intended change). A repeat by the same caller within 24 hours, with the same method, path and body, changes nothing and gets the first successful answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`. A malformed key, or the same key with another path or body, is 422 (`field: "Idempotency-Key"`); a repeat while the first is still running is 409.
         * @example 5f0c6c4e-3a52-4d8e-9a43-1f2b7c1d9e10
         */
        IdempotencyKey: string;
        /**
         * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
         * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
         */
        IfMatch: string;
        /**
         * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
         * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
         */
        IfNoneMatch: string;
        /**
         * @description Page number, from 1 (default 1). Not with `cursor`.
         * @example 1
         */
        Page: number;
        /**
         * @description Items per page, 1 to 100
         * @example 20
         */
        Limit: number;
        /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
        Cursor: string;
        /**
         * @description The artist's id (UUID, any letter case)
         * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02
         */
        ArtistId: string;
        /**
         * @description The user's id (UUID, any letter case)
         * @example 01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01
         */
        UserId: string;
        /**
         * @description The song's id (UUID, any letter case)
         * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
         */
        SongId: string;
        /**
         * @description The playlist's id (UUID, any letter case)
         * @example 01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05
         */
        PlaylistId: string;
        /**
         * @description The webhook's id (UUID, any letter case)
         * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
         */
        WebhookId: string;
        /**
         * @description Comma-separated things to add to each song: `artists` (the song’s artists, in `artistIds` order, as `artists`). Without it the song is answered as ever. Anything else is a 422.
         * @example artists
         */
        Expand: string;
        /**
         * @description The API key's id (UUID, any letter case)
         * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
         */
        KeyId: string;
    };
    requestBodies: never;
    headers: {
        /** @description Echoes a valid incoming `X-Request-Id`, or a generated one: quote it when reporting a problem. */
        "X-Request-Id": string;
        /** @description Entity tag of the representation in this answer: it changes whenever anything in it changes. A record’s is strong: send it back as `If-None-Match` to revalidate (304) or as `If-Match` to write safely (412). A list’s is weak (`W/"…"`): for `If-None-Match` only. */
        ETag: string;
        /** @description A file to save, and the name to save it as. */
        "Content-Disposition": string;
        /** @description Path of the new resource (its `GET` operation). */
        Location: string;
        /** @description RFC 8288 pagination links: `rel="first"` and `rel="last"` always, `rel="prev"` and `rel="next"` where that page exists. Each is a full URL keeping the request’s other query parameters. In cursor mode: `rel="first"` (`cursor=`) always and `rel="next"` (the next cursor) while one follows. */
        Link: string;
        /** @description Requests the caller may make per minute (a signed-in user, or the client address when anonymous). Absent when budgets are turned off. */
        "RateLimit-Limit": number;
        /** @description Requests left in the current window. */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window ends and the budget is whole again. */
        "RateLimit-Reset": number;
        /** @description The budget as `<limit>;w=60`: so many requests per 60-second window. */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before trying again. */
        "Retry-After": number;
        /** @description RFC 6750 challenge: `Bearer realm="music"`, plus `error="invalid_token"` when a token was sent and refused (expired, revoked, forged): sign in or refresh, then retry. */
        "WWW-Authenticate": string;
        /** @description On the 403 of an API key only (RFC 6750): `Bearer realm="music", error="insufficient_scope", scope="…"` naming the scope the operation needs, without `scope` where no key may call it. A 403 for a role or an ownership has none. */
        InsufficientScope: string;
        /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`: nothing was done again. */
        "Idempotent-Replayed": "true";
        /** @description Sent only to browsers on an origin the operator allowed (`CORS_ORIGINS`): that origin. Cookies are never allowed. */
        "Access-Control-Allow-Origin": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "auth-login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "accessToken": "eyJhbGciOiJIUzI1NiIsImtpZCI6IjFhMmIiLCJ0eXAiOiJKV1QifQ.eyJzdWIiOiIwMTk3MGEzZS01YzFkLTdiMmEtOGYzZS0yZDRjNmI4YTllMDEiLCJyb2xlIjoidXNlciJ9.c2lnbmF0dXJl",
                     *       "refreshToken": "rt_7Qm3d9VfK2pL8xZ4nB6cH1sT5wY0aE3j",
                     *       "tokenType": "Bearer",
                     *       "expiresIn": 86400,
                     *       "user": {
                     *         "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *         "username": "Ada Lovelace",
                     *         "email": "ada@example.com",
                     *         "role": "user",
                     *         "createdAt": "2026-03-14T09:26:53Z",
                     *         "updatedAt": "2026-03-15T18:02:11Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            /** @description Wrong email or password (the same answer for both, in about the same time), or a bearer token was sent with the request and refused */
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `email` or `password` missing or not a string, or an unknown field */
            422: components["responses"]["ValidationFailed"];
            /** @description Too many failed sign-ins for this email or from this address, or over the request budget: wait `Retry-After` seconds */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "auth-refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "refreshToken": "rt_7Qm3d9VfK2pL8xZ4nB6cH1sT5wY0aE3j"
                 *     }
                 */
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "accessToken": "eyJhbGciOiJIUzI1NiIsImtpZCI6IjFhMmIiLCJ0eXAiOiJKV1QifQ.eyJzdWIiOiIwMTk3MGEzZS01YzFkLTdiMmEtOGYzZS0yZDRjNmI4YTllMDEiLCJyb2xlIjoidXNlciJ9.c2lnbmF0dXJl",
                     *       "refreshToken": "rt_7Qm3d9VfK2pL8xZ4nB6cH1sT5wY0aE3j",
                     *       "tokenType": "Bearer",
                     *       "expiresIn": 86400,
                     *       "user": {
                     *         "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *         "username": "Ada Lovelace",
                     *         "email": "ada@example.com",
                     *         "role": "user",
                     *         "createdAt": "2026-03-14T09:26:53Z",
                     *         "updatedAt": "2026-03-15T18:02:11Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            /** @description The refresh token is unknown, expired, already used (its session is now revoked) or its session ended; sign in again */
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "auth-logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key (only a signed-in session may call this operation) */
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "auth-me": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *       "username": "Ada Lovelace",
                     *       "email": "ada@example.com",
                     *       "role": "user",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "auth-requestPasswordReset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com"
                 *     }
                 */
                "application/json": components["schemas"]["PasswordResetRequest"];
            };
        };
        responses: {
            202: components["responses"]["Accepted"];
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `email` missing or not an email address, or an unknown field */
            422: components["responses"]["ValidationFailed"];
            /** @description Five requests for this email, or from this address, within a quarter hour (whether the email has an account or not), or over the request budget: wait `Retry-After` seconds */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "auth-resetPassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "Xc2Pq9Lm4Rt7Vw1Yz5Ab8Cd3Ef6Gh0Jk2Mn4Pq6St8U",
                 *       "password": "a new, long passphrase"
                 *     }
                 */
                "application/json": components["schemas"]["PasswordResetConfirm"];
            };
        };
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The token is unknown, expired or already used (`field: "token"`), or the password is not 8 to 128 characters */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-list": {
        parameters: {
            query?: {
                /** @description Only users with this role */
                role?: components["schemas"]["Role"];
                /**
                 * @description Case-insensitive substring of the username or the email
                 * @example ada
                 */
                search?: string;
                /**
                 * @description Comma-separated fields to order by, `-` for descending: username, email, createdAt. Ties are broken by id.
                 * @example -createdAt
                 */
                sort?: string;
                /**
                 * @description Only these users: 1 to 100 comma-separated ids (UUIDs, any letter case; duplicates are ignored); ids that name nobody are simply absent, and the other filters still apply. Resolves the accounts a client holds the ids of in one call: pass `limit=100` to get them all on one page.
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02,01970a3e-8a53-7d2a-9b7c-6f4e3d2c1b0a
                 */
                ids?: string;
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *           "username": "Ada Lovelace",
                     *           "email": "ada@example.com",
                     *           "role": "user",
                     *           "createdAt": "2026-03-14T09:26:53Z",
                     *           "updatedAt": "2026-03-15T18:02:11Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["UserList"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `sort` names an unknown field or one field twice; `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not an admin; or an API key without the scope `users:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-create": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: 1 to 255 printable ASCII characters (a fresh UUID per intended change). A repeat by the same caller within 24 hours, with the same method, path and body, changes nothing and gets the first successful answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`. A malformed key, or the same key with another path or body, is 422 (`field: "Idempotency-Key"`); a repeat while the first is still running is 409.
                 * @example 5f0c6c4e-3a52-4d8e-9a43-1f2b7c1d9e10
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "username": "Ada Lovelace",
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["UserCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *       "username": "Ada Lovelace",
                     *       "email": "ada@example.com",
                     *       "role": "user",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            /** @description A bearer token was sent and refused (invalid, expired or revoked); send none to sign up anonymously */
            401: components["responses"]["Unauthorized"];
            /** @description A `role` other than `user` without an admin’s token; or an API key without the scope `users:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description The email is already used (case-insensitively); or a request with the same `Idempotency-Key` is still being processed */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description Body fields failed validation (an unknown field included); `errors` names each; or the `Idempotency-Key` is malformed, or was already used with another path or body (`field: "Idempotency-Key"`) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-profiles": {
        parameters: {
            query?: {
                /**
                 * @description Only these users: 1 to 100 comma-separated ids (UUIDs, any letter case; duplicates are ignored); ids that name nobody, or a user you may not see, are simply absent. Resolves the owners of a page of playlists in one call: pass `limit=100` to get them all on one page.
                 * @example 01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01,01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06
                 */
                ids?: string;
                /** @description Case-insensitive substring of the username */
                search?: string;
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 100
                 */
                limit?: number;
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *           "username": "Ada Lovelace"
                     *         },
                     *         {
                     *           "id": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *           "username": "Grace Hopper"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 100,
                     *         "total": 2
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ProfileList"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `users:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-get": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The user's id (UUID, any letter case)
                 * @example 01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01
                 */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *       "username": "Ada Lovelace",
                     *       "email": "ada@example.com",
                     *       "role": "user",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description You are not an admin and this is not your own id (whether or not such a user exists).; or an API key without the scope `users:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No user with this id (admins only: others get 403) */
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The user's id (UUID, any letter case)
                 * @example 01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01
                 */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "username": "Ada King",
                 *       "email": "ada.king@example.com",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["UserUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *       "username": "Ada King",
                     *       "email": "ada.king@example.com",
                     *       "role": "user",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description You are not an admin and this is not your own id (whether or not such a user exists). Or a non-admin sending a `role` other than their current one.; or an API key without the scope `users:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No user with this id (admins only: others get 403) */
            404: components["responses"]["NotFound"];
            /** @description The email belongs to another user, or the change would leave no admin */
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A field is invalid or unknown; or `currentPassword` is missing or wrong where your own email or password changes (`field: "currentPassword"`) */
            422: components["responses"]["ValidationFailed"];
            /** @description Too many failed sign-ins (a wrong `currentPassword` counts as one) for your email or from this address, or over the request budget: wait `Retry-After` seconds */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-delete": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The user's id (UUID, any letter case)
                 * @example 01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01
                 */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description You are not an admin and this is not your own id (whether or not such a user exists).; or an API key without the scope `users:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No user with this id (admins only: others get 403) */
            404: components["responses"]["NotFound"];
            /** @description This is the last admin: there is always one */
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-patch": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The user's id (UUID, any letter case)
                 * @example 01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01
                 */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada.king@example.com",
                 *       "currentPassword": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["UserPatch"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *       "username": "Ada Lovelace",
                     *       "email": "ada.king@example.com",
                     *       "role": "user",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description You are not an admin and this is not your own id (whether or not such a user exists). Or a non-admin sending a `role` other than their current one.; or an API key without the scope `users:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No user with this id (admins only: others get 403) */
            404: components["responses"]["NotFound"];
            /** @description The email belongs to another user, or the change would leave no admin */
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A field is invalid or unknown; or `currentPassword` is missing or wrong where your own email or password changes (`field: "currentPassword"`) */
            422: components["responses"]["ValidationFailed"];
            /** @description Too many failed sign-ins (a wrong `currentPassword` counts as one) for your email or from this address, or over the request budget: wait `Retry-After` seconds */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-setRole": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The user's id (UUID, any letter case)
                 * @example 01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01
                 */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "artist"
                 *     }
                 */
                "application/json": components["schemas"]["UserRoleUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *       "username": "Grace Hopper",
                     *       "email": "grace@example.com",
                     *       "role": "artist",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not an admin; or an API key without the scope `users:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No user with this id */
            404: components["responses"]["NotFound"];
            /** @description The change would leave no admin */
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `role` missing or not one of `user`, `artist`, `admin`, or an unknown field */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "users-passwordResetLink": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The user's id (UUID, any letter case)
                 * @example 01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01
                 */
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://console.example.com/reset-password#token=Xc2Pq9Lm4Rt7Vw1Yz5Ab8Cd3Ef6Gh0Jk2Mn4Pq6St8U",
                     *       "expiresAt": "2026-11-22T12:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PasswordResetLink"];
                };
            };
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not an admin; or an API key (only a signed-in session may call this operation) */
            403: components["responses"]["Forbidden"];
            /** @description No user with this id */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "apiKeys-list": {
        parameters: {
            query?: {
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Whose keys (admins only); default: your own */
                userId?: string;
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1b",
                     *           "name": "Label ingest",
                     *           "scopes": [
                     *             "catalogue:read",
                     *             "catalogue:write"
                     *           ],
                     *           "prefix": "mc_Q2hhbmdlT",
                     *           "createdAt": "2026-11-27T10:00:00Z",
                     *           "expiresAt": null,
                     *           "lastUsedAt": null
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        pagination: components["schemas"]["Pagination"] | components["schemas"]["CursorPagination"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description An API key (keys never manage keys), or a non-admin naming another user’s `userId`; or an API key (only a signed-in session may call this operation) */
            403: components["responses"]["Forbidden"];
            /** @description No user with this `userId` */
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "apiKeys-create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Label ingest",
                 *       "scopes": [
                 *         "catalogue:read",
                 *         "catalogue:write"
                 *       ],
                 *       "expiresAt": "2027-11-27T00:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["ApiKeyCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1b",
                     *       "name": "Label ingest",
                     *       "scopes": [
                     *         "catalogue:read",
                     *         "catalogue:write"
                     *       ],
                     *       "prefix": "mc_Q2hhbmdlT",
                     *       "createdAt": "2026-11-27T10:00:00Z",
                     *       "expiresAt": "2027-11-27T00:00:00Z",
                     *       "lastUsedAt": null,
                     *       "token": "mc_Q2hhbmdlTWVCZWZvcmVVc2luZ0l0SW5Qcm9kdWN0"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description An API key (keys never manage keys); or an API key (only a signed-in session may call this operation) */
            403: components["responses"]["Forbidden"];
            /** @description The account already has 100 keys */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description An unknown or repeated scope, no scope, an empty name, or `expiresAt` not in the future */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "apiKeys-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The API key's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1b",
                     *       "name": "Label ingest",
                     *       "scopes": [
                     *         "catalogue:read",
                     *         "catalogue:write"
                     *       ],
                     *       "prefix": "mc_Q2hhbmdlT",
                     *       "createdAt": "2026-11-27T10:00:00Z",
                     *       "expiresAt": null,
                     *       "lastUsedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Malformed request: `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description An API key (keys never manage keys); or an API key (only a signed-in session may call this operation) */
            403: components["responses"]["Forbidden"];
            /** @description No key with this id among yours (an admin sees every key; a malformed id names none) */
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "apiKeys-delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The API key's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description An API key (keys never manage keys); or an API key (only a signed-in session may call this operation) */
            403: components["responses"]["Forbidden"];
            /** @description No key with this id among yours (an admin sees every key; a malformed id names none) */
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-list": {
        parameters: {
            query?: {
                /**
                 * @description Words to find in the name, in any order; letter case, accents, letter variants, punctuation and spacing do not count (`sigur ros` finds “Sigur Rós”).
                 * @example engine
                 */
                search?: string;
                /**
                 * @description Comma-separated fields to order by, `-` for descending: name, createdAt (default: name). Ties are broken by id. Or, with `search`, `relevance` alone: names that are the term, then names starting with it, then names with a word starting with it, then the rest; within each, artists whose songs are in more playlists first, then by name and id.
                 * @example name
                 */
                sort?: string;
                /** @description Only artists managed by this account (an extension: how the console finds “my artist”) */
                userId?: string;
                /**
                 * @description Only these artists: 1 to 100 comma-separated ids (UUIDs, any letter case; duplicates are ignored); ids that name nothing are simply absent, and the other filters still apply. Resolves the artists of a page of songs in one call: pass `limit=100` to get them all on one page.
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02,01970a3e-8a53-7d2a-9b7c-6f4e3d2c1b0a
                 */
                ids?: string;
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *           "name": "The Analytical Engines",
                     *           "bio": "Four-piece from Manchester.\nSynths, drums and a punched-card light show.",
                     *           "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *           "createdAt": "2026-03-14T09:26:53Z",
                     *           "updatedAt": "2026-03-15T18:02:11Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ArtistList"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `sort` names an unknown field or one field twice; `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-create": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: 1 to 255 printable ASCII characters (a fresh UUID per intended change). A repeat by the same caller within 24 hours, with the same method, path and body, changes nothing and gets the first successful answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`. A malformed key, or the same key with another path or body, is 422 (`field: "Idempotency-Key"`); a repeat while the first is still running is 409.
                 * @example 5f0c6c4e-3a52-4d8e-9a43-1f2b7c1d9e10
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "The Analytical Engines",
                 *       "bio": "Four-piece from Manchester.\nSynths, drums and a punched-card light show.",
                 *       "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06"
                 *     }
                 */
                "application/json": components["schemas"]["ArtistCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *       "name": "The Analytical Engines",
                     *       "bio": "Four-piece from Manchester.\nSynths, drums and a punched-card light show.",
                     *       "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Artist"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not an admin; or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description Conflicts with the current state; or a request with the same `Idempotency-Key` is still being processed */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A field failed validation (e.g. `userId` names no user with role `artist`); or the `Idempotency-Key` is malformed, or was already used with another path or body (`field: "Idempotency-Key"`) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-get": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The artist's id (UUID, any letter case)
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02
                 */
                artistId: components["parameters"]["ArtistId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *       "name": "The Analytical Engines",
                     *       "bio": "Four-piece from Manchester.\nSynths, drums and a punched-card light show.",
                     *       "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Artist"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No artist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-replace": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The artist's id (UUID, any letter case)
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02
                 */
                artistId: components["parameters"]["ArtistId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "The Analytical Engines",
                 *       "bio": null
                 *     }
                 */
                "application/json": components["schemas"]["ArtistUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *       "name": "The Analytical Engines",
                     *       "bio": null,
                     *       "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Artist"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Neither an admin nor the artist’s linked user (`userId`), or a non-admin changing `userId`; or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No artist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-delete": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The artist's id (UUID, any letter case)
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02
                 */
                artistId: components["parameters"]["ArtistId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not an admin; or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No artist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The artist's id (UUID, any letter case)
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02
                 */
                artistId: components["parameters"]["ArtistId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "bio": "Five-piece now, with a theremin."
                 *     }
                 */
                "application/json": components["schemas"]["ArtistPatch"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *       "name": "The Analytical Engines",
                     *       "bio": "Five-piece now, with a theremin.",
                     *       "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Artist"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Neither an admin nor the artist’s linked user (`userId`), or a non-admin changing `userId`; or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No artist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-songs": {
        parameters: {
            query?: {
                /** @description Comma-separated: `artists` adds each song’s artists. Anything else is a 422. */
                expand?: string;
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The artist's id (UUID, any letter case)
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02
                 */
                artistId: components["parameters"]["ArtistId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *           "title": "example",
                     *           "album": "example",
                     *           "genre": "example",
                     *           "duration": 1,
                     *           "releaseYear": 1000,
                     *           "isrc": "USRC17607839",
                     *           "externalId": "LBL-2024-0042",
                     *           "artistIds": [
                     *             "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                     *           ],
                     *           "createdAt": "2026-11-22T12:00:00Z",
                     *           "updatedAt": "2026-11-22T12:00:00Z",
                     *           "artists": [
                     *             {
                     *               "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *               "name": "The Analytical Engines",
                     *               "bio": "Four-piece from Manchester.\nSynths, drums and a punched-card light show.",
                     *               "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *               "createdAt": "2026-03-14T09:26:53Z",
                     *               "updatedAt": "2026-03-15T18:02:11Z"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SongList"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No artist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-linkSong": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The artist's id (UUID, any letter case)
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02
                 */
                artistId: components["parameters"]["ArtistId"];
                /**
                 * @description The song's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                songId: components["parameters"]["SongId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Neither an admin nor the artist’s linked user (`userId`); or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No such artist or no such song */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "artists-unlinkSong": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The artist's id (UUID, any letter case)
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02
                 */
                artistId: components["parameters"]["ArtistId"];
                /**
                 * @description The song's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                songId: components["parameters"]["SongId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Neither an admin nor the artist’s linked user (`userId`); or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No such artist, no such song, or the song is not linked to the artist */
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "songs-export": {
        parameters: {
            query?: {
                /**
                 * @description `csv` (default) or `ndjson` (one JSON object a line)
                 * @example csv
                 */
                format?: "csv" | "ndjson";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example title,album,genre,duration,releaseYear,isrc,externalId,artists
                     *     Blue in Green,Kind of Blue,Jazz,337,1959,USSM15900113,,Miles Davis;Bill Evans
                     */
                    "text/csv": string;
                    /** @example {"title":"Blue in Green","album":"Kind of Blue","genre":"Jazz","duration":337,"releaseYear":1959,"isrc":"USSM15900113","externalId":null,"artists":["Miles Davis","Bill Evans"]} */
                    "application/x-ndjson": string;
                };
            };
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "songs-list": {
        parameters: {
            query?: {
                /**
                 * @description Words to find in the title, the album or an artist’s name, in any order. Letter case, accents and letter variants (é/e, ł/l, ø/o, æ/ae, œ/oe, ß/ss), full-width forms, punctuation and spacing between words do not count: `ac dc` and `acdc` find “AC/DC”, `beyonce` finds “Beyoncé”. A term without letters or digits is looked for as written, and one made only of words of one or two characters (`a-ha`, `ac/dc`) as one run of them. A search counts at most 1,000 matches: beyond that, `total` is 1,000 and the pages hold 1,000 of the matches (the first the index finds; by relevance, with every title equal to or starting with the term among them) in the order asked; cursor pages go on through every match.
                 * @example engine
                 */
                search?: string;
                /** @description Only songs of this artist */
                artistId?: string;
                /**
                 * @description Only these songs: 1 to 100 comma-separated ids (UUIDs, any letter case; duplicates are ignored); ids that name nothing are simply absent, and the other filters still apply. Resolves the songs of a playlist page or a list of ids in one call: pass `limit=100` to get them all on one page.
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02,01970a3e-8a53-7d2a-9b7c-6f4e3d2c1b0a
                 */
                ids?: string;
                /**
                 * @description Comma-separated things to add to each song: `artists` (the song’s artists, in `artistIds` order, as `artists`). Without it the song is answered as ever. Anything else is a 422.
                 * @example artists
                 */
                expand?: components["parameters"]["Expand"];
                /**
                 * @description Only songs of this genre (case-insensitive)
                 * @example synth-pop
                 */
                genre?: string;
                /** @description Only the song with this ISRC (written as the field accepts it) */
                isrc?: string;
                /** @description Only the song with this externalId */
                externalId?: string;
                /**
                 * @description Comma-separated fields to order by, `-` for descending: title, album, releaseYear, duration, createdAt (default: title). Ties are broken by id. Songs without an album or a release year come last in ascending order and first in descending order. Or, with `search`, `relevance` alone: titles that are the term first, then titles starting with it, then titles with a word starting with it, then the other matches (album, artists); within each, songs in more playlists first, then by title and id.
                 * @example -releaseYear,title
                 */
                sort?: string;
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *           "title": "example",
                     *           "album": "example",
                     *           "genre": "example",
                     *           "duration": 1,
                     *           "releaseYear": 1000,
                     *           "isrc": "USRC17607839",
                     *           "externalId": "LBL-2024-0042",
                     *           "artistIds": [
                     *             "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                     *           ],
                     *           "createdAt": "2026-11-22T12:00:00Z",
                     *           "updatedAt": "2026-11-22T12:00:00Z",
                     *           "artists": [
                     *             {
                     *               "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *               "name": "The Analytical Engines",
                     *               "bio": "Four-piece from Manchester.\nSynths, drums and a punched-card light show.",
                     *               "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *               "createdAt": "2026-03-14T09:26:53Z",
                     *               "updatedAt": "2026-03-15T18:02:11Z"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SongList"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `sort` names an unknown field or one field twice; `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "songs-create": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: 1 to 255 printable ASCII characters (a fresh UUID per intended change). A repeat by the same caller within 24 hours, with the same method, path and body, changes nothing and gets the first successful answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`. A malformed key, or the same key with another path or body, is 422 (`field: "Idempotency-Key"`); a repeat while the first is still running is 409.
                 * @example 5f0c6c4e-3a52-4d8e-9a43-1f2b7c1d9e10
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Difference Engine",
                 *       "album": "Notes on the Engine",
                 *       "genre": "Synth-pop",
                 *       "duration": 242,
                 *       "releaseYear": 2024,
                 *       "isrc": "GBAYE2400123",
                 *       "externalId": null,
                 *       "artistIds": [
                 *         "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["SongCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *       "title": "Difference Engine",
                     *       "album": "Notes on the Engine",
                     *       "genre": "Synth-pop",
                     *       "duration": 242,
                     *       "releaseYear": 2024,
                     *       "isrc": "GBAYE2400123",
                     *       "externalId": null,
                     *       "artistIds": [
                     *         "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02"
                     *       ],
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Song"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Neither an admin nor an artist account linked to one of `artistIds`; or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description Another song has this `isrc` or `externalId`; or a request with the same `Idempotency-Key` is still being processed */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A field failed validation, e.g. an unknown or repeated id at `artistIds.N`; or the `Idempotency-Key` is malformed, or was already used with another path or body (`field: "Idempotency-Key"`) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "songs-get": {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated things to add to each song: `artists` (the song’s artists, in `artistIds` order, as `artists`). Without it the song is answered as ever. Anything else is a 422.
                 * @example artists
                 */
                expand?: components["parameters"]["Expand"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The song's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                songId: components["parameters"]["SongId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *       "title": "example",
                     *       "album": "example",
                     *       "genre": "example",
                     *       "duration": 1,
                     *       "releaseYear": 1000,
                     *       "isrc": "USRC17607839",
                     *       "externalId": "LBL-2024-0042",
                     *       "artistIds": [
                     *         "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                     *       ],
                     *       "createdAt": "2026-11-22T12:00:00Z",
                     *       "updatedAt": "2026-11-22T12:00:00Z",
                     *       "artists": [
                     *         {
                     *           "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *           "name": "The Analytical Engines",
                     *           "bio": "Four-piece from Manchester.\nSynths, drums and a punched-card light show.",
                     *           "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *           "createdAt": "2026-03-14T09:26:53Z",
                     *           "updatedAt": "2026-03-15T18:02:11Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SongRead"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No song with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "songs-delete": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The song's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                songId: components["parameters"]["SongId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Neither an admin nor a user linked to one of the song’s artists; or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No song with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "songs-update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The song's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                songId: components["parameters"]["SongId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "genre": "Electropop",
                 *       "artistIds": [
                 *         "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["SongPatch"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *       "title": "Difference Engine",
                     *       "album": "Notes on the Engine",
                     *       "genre": "Electropop",
                     *       "duration": 242,
                     *       "releaseYear": 2024,
                     *       "isrc": "GBAYE2400123",
                     *       "externalId": null,
                     *       "artistIds": [
                     *         "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02"
                     *       ],
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Song"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Neither an admin nor a user linked to one of the song’s artists; or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No song with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            /** @description Another song has this `isrc` or `externalId` */
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A field failed validation, e.g. an unknown or repeated id at `artistIds.N` */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "genres-list": {
        parameters: {
            query?: {
                /**
                 * @description Case-insensitive substring of the name
                 * @example pop
                 */
                search?: string;
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "name": "Electropop",
                     *           "songCount": 3
                     *         },
                     *         {
                     *           "name": "Synth-pop",
                     *           "songCount": 12
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 2
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["GenreList"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "playlists-list": {
        parameters: {
            query?: {
                /** @description Only this user’s playlists. A non-admin may name only themself (anyone else: 403), except with `visibility=public`, which lists that user’s public playlists. */
                userId?: string;
                /**
                 * @description An extension. `public`: the public playlists of every user, or of `userId` when given, for any signed-in caller (admins included: only the public ones). Omitted: your own playlists; an admin sees every playlist, or `userId`’s.
                 * @example public
                 */
                visibility?: "public";
                /** @description An extension. Only the playlists holding at least one song of this artist (one that does not exist: none). Combines with the other filters: with `visibility=public`, the public playlists featuring the artist, whoever owns them. */
                artistId?: string;
                /**
                 * @description Comma-separated fields to order by, `-` for descending: name, createdAt (default: createdAt). Ties are broken by id.
                 * @example name
                 */
                sort?: string;
                /**
                 * @description Only these playlists: 1 to 100 comma-separated ids (UUIDs, any letter case; duplicates are ignored); ids that name nothing, or a playlist you may not read (another user’s private one), are simply absent; the other filters still apply, and without `userId` or `visibility` a non-admin gets their own and public playlists among them. Resolves playlists a client holds the ids of in one call: pass `limit=100` to get them all on one page.
                 * @example 01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02,01970a3e-8a53-7d2a-9b7c-6f4e3d2c1b0a
                 */
                ids?: string;
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05",
                     *           "userId": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *           "name": "Morning run",
                     *           "description": "Fast, then faster.",
                     *           "isPublic": false,
                     *           "songIds": [
                     *             "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *             "01970a3f-2b3c-7d4e-9f5a-6b7c8d9e0f04"
                     *           ],
                     *           "songCount": 2,
                     *           "createdAt": "2026-03-14T09:26:53Z",
                     *           "updatedAt": "2026-03-15T18:02:11Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PlaylistList"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `sort` names an unknown field or one field twice; `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description A non-admin naming another user’s `userId` without `visibility=public`; or an API key without the scope `playlists:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "playlists-create": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: 1 to 255 printable ASCII characters (a fresh UUID per intended change). A repeat by the same caller within 24 hours, with the same method, path and body, changes nothing and gets the first successful answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`. A malformed key, or the same key with another path or body, is 422 (`field: "Idempotency-Key"`); a repeat while the first is still running is 409.
                 * @example 5f0c6c4e-3a52-4d8e-9a43-1f2b7c1d9e10
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Morning run",
                 *       "description": "Fast, then faster.",
                 *       "songIds": [
                 *         "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                 *         "01970a3f-2b3c-7d4e-9f5a-6b7c8d9e0f04"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["PlaylistCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05",
                     *       "userId": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *       "name": "Morning run",
                     *       "description": "Fast, then faster.",
                     *       "isPublic": false,
                     *       "songIds": [
                     *         "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *         "01970a3f-2b3c-7d4e-9f5a-6b7c8d9e0f04"
                     *       ],
                     *       "songCount": 2,
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Playlist"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description A non-admin sending a `userId` other than their own; or an API key without the scope `playlists:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description Conflicts with the current state; or a request with the same `Idempotency-Key` is still being processed */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A field failed validation, e.g. an unknown or repeated song at `songIds.N`, or an unknown `userId`; or the `Idempotency-Key` is malformed, or was already used with another path or body (`field: "Idempotency-Key"`) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "playlists-get": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The playlist's id (UUID, any letter case)
                 * @example 01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05
                 */
                playlistId: components["parameters"]["PlaylistId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05",
                     *       "userId": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *       "name": "Morning run",
                     *       "description": "Fast, then faster.",
                     *       "isPublic": false,
                     *       "songIds": [
                     *         "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *         "01970a3f-2b3c-7d4e-9f5a-6b7c8d9e0f04"
                     *       ],
                     *       "songCount": 2,
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Playlist"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The playlist is private and not yours; or an API key without the scope `playlists:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No playlist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "playlists-replace": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The playlist's id (UUID, any letter case)
                 * @example 01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05
                 */
                playlistId: components["parameters"]["PlaylistId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Morning run",
                 *       "isPublic": true,
                 *       "songIds": [
                 *         "01970a3f-2b3c-7d4e-9f5a-6b7c8d9e0f04",
                 *         "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["PlaylistUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05",
                     *       "userId": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *       "name": "Morning run",
                     *       "description": null,
                     *       "isPublic": true,
                     *       "songIds": [
                     *         "01970a3f-2b3c-7d4e-9f5a-6b7c8d9e0f04",
                     *         "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                     *       ],
                     *       "songCount": 2,
                     *       "createdAt": "2026-03-14T09:26:53Z",
                     *       "updatedAt": "2026-03-15T18:02:11Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Playlist"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not the playlist’s owner (nor an admin); or an API key without the scope `playlists:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No playlist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A field failed validation, e.g. an unknown or repeated song at `songIds.N` */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "playlists-delete": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The playlist's id (UUID, any letter case)
                 * @example 01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05
                 */
                playlistId: components["parameters"]["PlaylistId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not the playlist’s owner (nor an admin); or an API key without the scope `playlists:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No playlist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "playlists-songs": {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated things to add to each song: `artists` (the song’s artists, in `artistIds` order, as `artists`). Without it the song is answered as ever. Anything else is a 422.
                 * @example artists
                 */
                expand?: components["parameters"]["Expand"];
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The playlist's id (UUID, any letter case)
                 * @example 01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05
                 */
                playlistId: components["parameters"]["PlaylistId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *           "title": "example",
                     *           "album": "example",
                     *           "genre": "example",
                     *           "duration": 1,
                     *           "releaseYear": 1000,
                     *           "isrc": "USRC17607839",
                     *           "externalId": "LBL-2024-0042",
                     *           "artistIds": [
                     *             "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                     *           ],
                     *           "createdAt": "2026-11-22T12:00:00Z",
                     *           "updatedAt": "2026-11-22T12:00:00Z",
                     *           "artists": [
                     *             {
                     *               "id": "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02",
                     *               "name": "The Analytical Engines",
                     *               "bio": "Four-piece from Manchester.\nSynths, drums and a punched-card light show.",
                     *               "userId": "01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06",
                     *               "createdAt": "2026-03-14T09:26:53Z",
                     *               "updatedAt": "2026-03-15T18:02:11Z"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SongList"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The playlist is private and not yours; or an API key without the scope `playlists:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No playlist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "playlists-addSong": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description Makes a retry safe: 1 to 255 printable ASCII characters (a fresh UUID per intended change). A repeat by the same caller within 24 hours, with the same method, path and body, changes nothing and gets the first successful answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`. A malformed key, or the same key with another path or body, is 422 (`field: "Idempotency-Key"`); a repeat while the first is still running is 409.
                 * @example 5f0c6c4e-3a52-4d8e-9a43-1f2b7c1d9e10
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description The playlist's id (UUID, any letter case)
                 * @example 01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05
                 */
                playlistId: components["parameters"]["PlaylistId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "songId": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                 *     }
                 */
                "application/json": components["schemas"]["PlaylistSongAdd"];
            };
        };
        responses: {
            204: components["responses"]["NoContentReplayable"];
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not the playlist’s owner (nor an admin); or an API key without the scope `playlists:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No playlist with this id (or a malformed id) */
            404: components["responses"]["NotFound"];
            /** @description The song is already in the playlist, or the playlist is full; or a request with the same `Idempotency-Key` is still being processed */
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `songId` missing, malformed or naming no song; or the `Idempotency-Key` is malformed, or was already used with another path or body (`field: "Idempotency-Key"`) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "playlists-removeSong": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The playlist's id (UUID, any letter case)
                 * @example 01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05
                 */
                playlistId: components["parameters"]["PlaylistId"];
                /**
                 * @description The song's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                songId: components["parameters"]["SongId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Not the playlist’s owner (nor an admin); or an API key without the scope `playlists:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No such playlist, or the song is not in it */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "auditEvents-list": {
        parameters: {
            query?: {
                /**
                 * @description Only events about this kind of record: `user`, `artist`, `song`, `playlist`, `api_key`, `webhook`
                 * @example song
                 */
                targetType?: string;
                /**
                 * @description Only events about this record (its id)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                targetId?: string;
                /** @description Only events of writes by this user (their id) */
                actorId?: string;
                /**
                 * @description Only events of this action: `user.created`, `user.updated`, `user.role_changed`, `user.password_changed`, `user.password_reset`, `user.reset_link_created`, `user.deleted`, `artist.created`, `artist.updated`, `artist.deleted`, `artist.song_linked`, `artist.song_unlinked`, `song.created`, `song.updated`, `song.deleted`, `playlist.created`, `playlist.updated`, `playlist.songs_reordered`, `playlist.song_added`, `playlist.song_removed`, `playlist.deleted`, `api_key.created`, `api_key.deleted`, `webhook.created`, `webhook.updated`, `webhook.deleted`
                 * @example song.updated
                 */
                action?: string;
                /** @description Only events at or after this ISO 8601 date-time */
                since?: string;
                /** @description Only events before this ISO 8601 date-time */
                until?: string;
                /** @description The `nextCursor` of the page before; omitted: the newest events */
                cursor?: string;
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1b",
                     *           "at": "2026-11-22T12:00:00Z",
                     *           "actor": {
                     *             "userId": "01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01",
                     *             "apiKeyId": null
                     *           },
                     *           "action": "song.updated",
                     *           "target": {
                     *             "type": "song",
                     *             "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                     *           },
                     *           "changes": {
                     *             "title": {
                     *               "before": "Blue in Green",
                     *               "after": "Blue in Green (take 2)"
                     *             }
                     *           },
                     *           "requestId": "5f0c6f1e-2a4b-4c1d-9e8f-0a1b2c3d4e5f",
                     *           "address": "203.0.113.7"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an admin; or an API key without the scope `events:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description An unknown `targetType` or `action`, a `since` or `until` that is not an ISO 8601 date-time, or a `cursor` this list did not give out (`field` names the parameter) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "events-list": {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the read before; omitted: from the oldest event kept */
                after?: string;
                /**
                 * @description Only events of these types, comma-separated; `song.*` stands for every type of songs. Types: `song.created`, `song.updated`, `song.deleted`, `artist.created`, `artist.updated`, `artist.deleted`, `playlist.created`, `playlist.updated`, `playlist.deleted`, `user.created`, `user.updated`, `user.deleted`
                 * @example song.*
                 */
                types?: string;
                /**
                 * @description Events per read, 1 to 1000
                 * @example 100
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1c",
                     *           "type": "song.updated",
                     *           "at": "2026-11-22T12:00:00Z",
                     *           "resource": {
                     *             "type": "song",
                     *             "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03"
                     *           },
                     *           "data": {
                     *             "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *             "title": "Blue in Green (take 2)",
                     *             "album": "Kind of Blue",
                     *             "genre": "Jazz",
                     *             "duration": 337,
                     *             "releaseYear": 1959,
                     *             "isrc": null,
                     *             "externalId": null,
                     *             "artistIds": [
                     *               "01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02"
                     *             ],
                     *             "createdAt": "2026-11-22T11:00:00Z",
                     *             "updatedAt": "2026-11-22T12:00:00Z"
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": "Y2hhbmdlcy40Mg"
                     *     }
                     */
                    "application/json": components["schemas"]["ChangeEventPage"];
                };
            };
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `events:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description The cursor is older than the events kept (EVENT_RETENTION_DAYS): read again without `after` */
            410: components["responses"]["Gone"];
            /** @description An unknown type in `types`, or an `after` this feed did not give out (`field` names the parameter) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhooks-list": {
        parameters: {
            query?: {
                /**
                 * @description Page number, from 1 (default 1). Not with `cursor`.
                 * @example 1
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Items per page, 1 to 100
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /** @description Cursor mode: empty for the first page, then the `pagination.nextCursor` of the page before. Pages stay exact while rows are added or removed (none skipped or repeated); no `total` is counted. Opaque; one made for another list or `sort`, or altered, is a 422. Not with `page`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Whose webhooks (admins only); default: your own */
                userId?: string;
            };
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1d",
                     *           "userId": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c10",
                     *           "url": "https://hooks.example.com/music",
                     *           "events": [
                     *             "song.*",
                     *             "artist.created"
                     *           ],
                     *           "description": "Mirror of the catalogue",
                     *           "enabled": true,
                     *           "failures": 0,
                     *           "disabledAt": null,
                     *           "disabledReason": null,
                     *           "createdAt": "2026-12-02T10:00:00Z",
                     *           "updatedAt": "2026-12-02T10:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 20,
                     *         "total": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        pagination: components["schemas"]["Pagination"] | components["schemas"]["CursorPagination"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description A non-admin naming another user’s `userId`; or an API key without the scope `webhooks:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No user with this `userId` */
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhooks-create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/music",
                 *       "events": [
                 *         "song.*",
                 *         "artist.created"
                 *       ],
                 *       "description": "Mirror of the catalogue"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1d",
                     *       "userId": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c10",
                     *       "url": "https://hooks.example.com/music",
                     *       "events": [
                     *         "song.*",
                     *         "artist.created"
                     *       ],
                     *       "description": "Mirror of the catalogue",
                     *       "enabled": true,
                     *       "failures": 0,
                     *       "disabledAt": null,
                     *       "disabledReason": null,
                     *       "createdAt": "2026-12-02T10:00:00Z",
                     *       "updatedAt": "2026-12-02T10:00:00Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `webhooks:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description The account already has 25 webhooks */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A URL the rules refuse (`url`), or an unknown type, a repeated one, none, or `user.*` asked by a non-admin (`events`) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhooks-get": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The webhook's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                webhookId: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1d",
                     *       "userId": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c10",
                     *       "url": "https://hooks.example.com/music",
                     *       "events": [
                     *         "song.*",
                     *         "artist.created"
                     *       ],
                     *       "description": "Mirror of the catalogue",
                     *       "enabled": true,
                     *       "failures": 0,
                     *       "disabledAt": null,
                     *       "disabledReason": null,
                     *       "createdAt": "2026-12-02T10:00:00Z",
                     *       "updatedAt": "2026-12-02T10:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            304: components["responses"]["NotModified"];
            /** @description Malformed request: `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `webhooks:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No webhook with this id among yours (an admin sees every webhook; a malformed id names none) */
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhooks-delete": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The webhook's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                webhookId: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `webhooks:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No webhook with this id among yours (an admin sees every webhook; a malformed id names none) */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhooks-update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only if the resource still has this `ETag` (or any, with `*`); otherwise 412 and nothing changes. Without it the write happens whatever changed meanwhile.
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                /**
                 * @description The webhook's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                webhookId: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "enabled": true
                 *     }
                 */
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1d",
                     *       "userId": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c10",
                     *       "url": "https://hooks.example.com/music",
                     *       "events": [
                     *         "song.*",
                     *         "artist.created"
                     *       ],
                     *       "description": "Mirror of the catalogue",
                     *       "enabled": true,
                     *       "failures": 0,
                     *       "disabledAt": null,
                     *       "disabledReason": null,
                     *       "createdAt": "2026-12-02T10:00:00Z",
                     *       "updatedAt": "2026-12-02T10:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Malformed request: the body is not a JSON object (or not `application/json`); `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `webhooks:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No webhook with this id among yours (an admin sees every webhook; a malformed id names none) */
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A URL the rules refuse (`url`), or types refused as at creation (`events`) */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhooks-deliveries": {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the page before; omitted: the newest deliveries */
                cursor?: string;
                /**
                 * @description Deliveries per page, 1 to 100
                 * @example 20
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /**
                 * @description The webhook's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                webhookId: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1e",
                     *           "eventId": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1c",
                     *           "eventType": "song.updated",
                     *           "status": "succeeded",
                     *           "attempts": 2,
                     *           "nextAttemptAt": null,
                     *           "lastAttemptAt": "2026-12-02T10:00:06Z",
                     *           "responseStatus": 204,
                     *           "responseBody": null,
                     *           "error": null,
                     *           "durationMs": 41,
                     *           "createdAt": "2026-12-02T10:00:01Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `webhooks:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No webhook with this id among yours (an admin sees every webhook; a malformed id names none) */
            404: components["responses"]["NotFound"];
            /** @description A `cursor` this list did not give out */
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhooks-retryDelivery": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The webhook's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                webhookId: components["parameters"]["WebhookId"];
                /**
                 * @description The delivery's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1e",
                     *       "eventId": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1c",
                     *       "eventType": "song.updated",
                     *       "status": "pending",
                     *       "attempts": 2,
                     *       "nextAttemptAt": "2026-12-02T11:00:00Z",
                     *       "lastAttemptAt": "2026-12-02T10:00:06Z",
                     *       "responseStatus": 204,
                     *       "responseBody": null,
                     *       "error": null,
                     *       "durationMs": 41,
                     *       "createdAt": "2026-12-02T10:00:01Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `webhooks:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No such webhook among yours, or no such delivery of it */
            404: components["responses"]["NotFound"];
            /** @description The delivery is still pending: an attempt is already due */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhooks-ping": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The webhook's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                webhookId: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1e",
                     *       "eventId": "01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1c",
                     *       "eventType": "webhook.ping",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "nextAttemptAt": "2026-12-02T11:00:00Z",
                     *       "lastAttemptAt": null,
                     *       "responseStatus": null,
                     *       "responseBody": null,
                     *       "error": null,
                     *       "durationMs": null,
                     *       "createdAt": "2026-12-02T10:00:01Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Malformed request: `If-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `webhooks:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No webhook with this id among yours (an admin sees every webhook; a malformed id names none) */
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "imports-create": {
        parameters: {
            query?: {
                /** @description `true`: only validate every record (and count what it would do); nothing is written */
                dryRun?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example title,album,genre,duration,releaseYear,isrc,externalId,artists
                 *     Blue in Green,Kind of Blue,Jazz,337,1959,USSM15900113,,Miles Davis;Bill Evans
                 */
                "text/csv": string;
                /** @example {"title":"Blue in Green","album":"Kind of Blue","genre":"Jazz","duration":337,"releaseYear":1959,"isrc":"USSM15900113","externalId":null,"artists":["Miles Davis","Bill Evans"]} */
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *       "status": "queued",
                     *       "dryRun": false,
                     *       "format": "csv",
                     *       "counts": {
                     *         "read": 0,
                     *         "created": 0,
                     *         "updated": 0,
                     *         "unchanged": 0,
                     *         "failed": 0
                     *       },
                     *       "errors": [],
                     *       "failure": null,
                     *       "createdAt": "2026-12-02T10:00:00Z",
                     *       "startedAt": null,
                     *       "finishedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["Import"];
                };
            };
            /** @description The body is not `text/csv` or `application/x-ndjson`, or is empty; or `dryRun` is not `true` or `false` */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Neither an admin nor an artist account; or an API key without `catalogue:write`; or an API key without the scope `catalogue:write` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description The file is over 100 MB: nothing was kept */
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "imports-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The import's id (UUID, any letter case)
                 * @example 01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03
                 */
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03",
                     *       "status": "succeeded",
                     *       "dryRun": false,
                     *       "format": "csv",
                     *       "counts": {
                     *         "read": 3,
                     *         "created": 1,
                     *         "updated": 1,
                     *         "unchanged": 0,
                     *         "failed": 1
                     *       },
                     *       "errors": [
                     *         {
                     *           "line": 4,
                     *           "field": "duration",
                     *           "message": "Too small: expected number to be >=1"
                     *         }
                     *       ],
                     *       "failure": null,
                     *       "createdAt": "2026-12-02T10:00:00Z",
                     *       "startedAt": "2026-12-02T10:00:01Z",
                     *       "finishedAt": "2026-12-02T10:00:02Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Import"];
                };
            };
            /** @description Malformed request: `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            /** @description No import with this id among yours (an admin sees every import) */
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "search-find": {
        parameters: {
            query: {
                /**
                 * @description What was typed so far, 1 to 100 characters. Words match in any order; the last may be the start of a word. Letter case, accents, letter variants, punctuation and spacing do not count; a word of 5 to 8 letters also matches with one typo, of 9 or more with two.
                 * @example sigur ro
                 */
                q: string;
                /**
                 * @description Comma-separated kinds to find: songs, artists, albums, playlists (default: all of them)
                 * @example songs,artists
                 */
                types?: string;
                /**
                 * @description At most this many of each kind, 1 to 20
                 * @example 5
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "songs": [
                     *         {
                     *           "id": "0192f0c1-7c3e-7a11-b3c4-5d6e7f809112",
                     *           "title": "Hoppípolla",
                     *           "album": "Takk...",
                     *           "genre": "Post-rock",
                     *           "duration": 268,
                     *           "releaseYear": 2005,
                     *           "isrc": "ISUM70500001",
                     *           "externalId": null,
                     *           "artistIds": [
                     *             "0192f0c1-7c3e-7a11-b3c4-5d6e7f809111"
                     *           ],
                     *           "createdAt": "2026-11-20T09:30:00Z",
                     *           "updatedAt": "2026-11-20T09:30:00Z"
                     *         }
                     *       ],
                     *       "artists": [
                     *         {
                     *           "id": "0192f0c1-7c3e-7a11-b3c4-5d6e7f809111",
                     *           "name": "Sigur Rós",
                     *           "bio": null,
                     *           "userId": null,
                     *           "createdAt": "2026-11-20T09:30:00Z",
                     *           "updatedAt": "2026-11-20T09:30:00Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SearchResult"];
                };
            };
            /** @description Malformed request: a query parameter is malformed or out of range (`page=0`, `limit=101`); `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description Signed in, but not allowed (role or ownership); or an API key without the scope `catalogue:read` (`WWW-Authenticate` names it) */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API and its database answer */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "database": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
            500: components["responses"]["InternalServerErrorUnmetered"];
            /** @description The database is unreachable, or the instance is draining before it stops */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "degraded",
                     *       "database": "unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    healthLive: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process answers */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            500: components["responses"]["InternalServerErrorUnmetered"];
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Answer 304 without a body when the current `ETag` is one of these (or any, with `*`).
                 * @example "q8PUVmQ4xw2Jx0lJ6pUoO2mEJbY"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "Music catalogue API",
                     *         "version": "1.1.0"
                     *       }
                     *     }
                     */
                    "application/json": Record<string, never>;
                };
            };
            304: components["responses"]["NotModifiedUnmetered"];
            /** @description `If-None-Match` is not `*` or a list of entity tags */
            400: components["responses"]["BadRequestUnmetered"];
            500: components["responses"]["InternalServerErrorUnmetered"];
        };
    };
    docs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            500: components["responses"]["InternalServerErrorUnmetered"];
        };
    };
}
