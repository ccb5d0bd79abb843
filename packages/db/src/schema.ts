import type {
  ColumnType,
  Generated,
  GeneratedAlways,
  Insertable,
  Kysely,
  Selectable,
  Updateable,
} from 'kysely';

import type {
  ImportChunksTable,
  ImportsTable,
  WebhookDeliveriesTable,
  WebhookDispatchTable,
  WebhooksTable,
} from './schema-integrations';

/** Table types, kept in step with ./migrations (which are the source of truth). */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export type Role = 'user' | 'artist' | 'admin';

export interface UsersTable {
  id: string;
  username: string;
  /** Trimmed and lower-cased before it is stored; unique. */
  email: string;
  password_hash: string;
  /** Defaults to `user`. */
  role: Generated<Role>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  rotated_at: Date | null;
}

export interface LoginFailuresTable {
  /** bigint identity (`generated always`): pg returns it as a string. */
  id: GeneratedAlways<string>;
  email: string;
  address: string;
  created_at: CreatedAt;
}

/** One window per email and per client address (see the login-throttle migration). */
export interface LoginThrottleTable {
  scope: 'email' | 'address';
  subject: string;
  window_started_at: Date;
  attempts: number;
}

/** Attempts per (scope, subject) in a window that says when it ends (see its migration). */
export interface AttemptWindowsTable {
  scope: string;
  subject: string;
  window_ends_at: Date;
  attempts: number;
}

/** A single-use password reset token, by its SHA-256 hash (see its migration). */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

/** A user's API key: found by `prefix`, proved by `token_hash` (see its migration). */
export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  scopes: string[];
  prefix: string;
  /** SHA-256 of the whole token, hex. */
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Date | null;
  last_used_at: Date | null;
}

/** When each clean-up job may run next (one instance claims each period). */
export interface HousekeepingTable {
  job: string;
  next_run_at: Date;
  last_run_at: Date | null;
  last_removed: number | null;
}

/** What a request answered, kept for its Idempotency-Key (see the idempotency migration). */
export interface IdempotencyKeysTable {
  caller: string;
  key: string;
  method: string;
  path: string;
  /** sha256 of the request's raw body, hex. */
  body_hash: string;
  /** Names the claim that holds the key: only it may complete or release the row. */
  attempt: string;
  state: 'pending' | 'done';
  status: number | null;
  /** jsonb: the answer's Location, ETag and Content-Type; written as JSON text. */
  headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  body: string | null;
  created_at: CreatedAt;
}

/** Requests counted per caller and one-minute window, summed over every instance. */
export interface RequestBudgetsTable {
  caller: string;
  window_start: Date;
  count: number;
}

export interface ArtistsTable {
  id: string;
  name: string;
  bio: string | null;
  user_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Folded name (`search_fold`), generated. */
  name_key: ColumnType<string, never, never>;
}

export interface SongsTable {
  id: string;
  title: string;
  album: string | null;
  genre: string | null;
  duration: number;
  release_year: number | null;
  /** 12 characters, upper case, unique where set. */
  isrc: string | null;
  external_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /**
   * Title, album and artist names, lower-cased, one per line: written only by the triggers of the
   * song-search migration (a plain column, not a generated one, since it reads other tables), so
   * statements never write it. Only search reads it.
   */
  search_text: ColumnType<string, never, never>;
  /** Folded title and album (`search_fold`), kept by the songs' search trigger. */
  title_key: ColumnType<string, never, never>;
  album_key: ColumnType<string | null, never, never>;
  /** The folded title, album and artist names, with their spaces (typo-tolerant matching). */
  search_words: ColumnType<string, never, never>;
  /** The first artist (lowest link position), kept by the link trigger: with `album_key`, an album. */
  album_artist_id: ColumnType<string | null, never, never>;
}

/** Every folded word of the catalogue's names, once (typos are corrected against it). */
export interface SearchVocabularyTable {
  word: string;
}

/**
 * Where each word but the first of a folded name starts, and the rest of the name from there (cut
 * at 64 characters): `t` song titles, `l` albums (both by song id), `a` artists, `p` playlists.
 */
export interface SearchStartsTable {
  kind: 't' | 'l' | 'a' | 'p';
  start: string;
  id: string;
}

export interface SongArtistsTable {
  song_id: string;
  artist_id: string;
  position: number;
}

export interface PlaylistsTable {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  /** Defaults to false. */
  is_public: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Folded name (`search_fold`), generated. */
  name_key: ColumnType<string, never, never>;
}

export interface PlaylistSongsTable {
  playlist_id: string;
  song_id: string;
  position: number;
  added_at: CreatedAt;
}

export interface RowCountsTable {
  table_name: 'users' | 'artists' | 'songs' | 'playlists';
  total: string;
}

/** One row: moved on by every committed change to songs, song_artists or artists. */
export interface CatalogueVersionTable {
  /** Always true: the table holds one row. */
  id: Generated<boolean>;
  /** bigint: pg returns it as a string. */
  version: string;
}

/** A field's value before and after a write, or `changed` for a password (never its value). */
export type AuditChange = { before: unknown; after: unknown } | 'changed';

/** One write the API made, recorded in the write's own transaction (see its migration). */
export interface AuditEventsTable {
  id: string;
  /** The database's clock, in whole milliseconds. */
  at: ColumnType<Date, Date | string | undefined, never>;
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  /** `<type>.<verb>`: `song.created`, `user.role_changed`... */
  action: string;
  target_type: string;
  target_id: string;
  /** jsonb: field -> change; written as JSON text. */
  changes: ColumnType<Record<string, AuditChange>, string, never>;
  request_id: string;
  address: string;
}

/** Who may read a change event (see the change-feed migration). */
export type ChangeAudience = 'everyone' | 'owner' | 'admins';

/** One change a write made, in the outbox the change feed reads (see its migration). */
export interface ChangeEventsTable {
  seq: Generated<string>;
  /** bigint as a string; null until the sequencer numbers the committed row. */
  position: ColumnType<string | null, never, string | null>;
  id: string;
  type: string;
  at: ColumnType<Date, Date | string | undefined, never>;
  resource_type: string;
  resource_id: string;
  /** jsonb, written as JSON text. */
  data: ColumnType<unknown, string, never>;
  audience: ChangeAudience;
  owner_id: string | null;
  redacted: ColumnType<unknown, string | null, never>;
}

/** The change feed's one row: the last position given and the last removed. */
export interface ChangeFeedTable {
  id: Generated<boolean>;
  head: ColumnType<string, never, string>;
  horizon: ColumnType<string, never, string>;
}

export interface Database {
  catalogue_version: CatalogueVersionTable;
  row_counts: RowCountsTable;
  users: UsersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  /** Read by the release before the login-throttle migration only; emptied by the clean-up. */
  login_failures: LoginFailuresTable;
  login_throttle: LoginThrottleTable;
  attempt_windows: AttemptWindowsTable;
  password_resets: PasswordResetsTable;
  api_keys: ApiKeysTable;
  housekeeping: HousekeepingTable;
  idempotency_keys: IdempotencyKeysTable;
  request_budgets: RequestBudgetsTable;
  artists: ArtistsTable;
  songs: SongsTable;
  song_artists: SongArtistsTable;
  playlists: PlaylistsTable;
  playlist_songs: PlaylistSongsTable;
  audit_events: AuditEventsTable;
  change_events: ChangeEventsTable;
  change_feed: ChangeFeedTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_dispatch: WebhookDispatchTable;
  imports: ImportsTable;
  import_chunks: ImportChunksTable;
  search_vocabulary: SearchVocabularyTable;
  search_starts: SearchStartsTable;
  read_positions: ReadPositionsTable;
}

/** Where a user's last write left the primary's WAL (read-your-writes on read replicas). */
export interface ReadPositionsTable {
  user_id: string;
  /** A `pg_lsn`, read and written as text (`16/B374D848`). */
  lsn: string;
  written_at: ColumnType<Date, never, never>;
}

/** The database handle every repository takes first (a transaction is one too). */
export type Db = Kysely<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
/** Search-only columns: folded text the database keeps, never part of a record. */
type SearchColumns =
  | 'search_text'
  | 'search_words'
  | 'title_key'
  | 'album_key'
  | 'name_key'
  | 'album_artist_id';
export type ArtistRow = Omit<Selectable<ArtistsTable>, SearchColumns>;
/** A song's own columns, as every song read returns them. */
export type SongRow = Omit<Selectable<SongsTable>, SearchColumns>;
export type PlaylistRow = Omit<Selectable<PlaylistsTable>, SearchColumns>;
export type AuditEventRow = Selectable<AuditEventsTable>;
