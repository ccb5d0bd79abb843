import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration once it has landed; add a new one.

export async function up(db: Kysely<any>): Promise<void> {
  // Trigram indexes make case-insensitive substring search (ILIKE '%word%') an index lookup.
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable('artists')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bio', 'text')
    // The account that manages this artist; the artist outlives the account.
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('artists_name_id_idx').on('artists').columns(['name', 'id']).execute();
  await db.schema.createIndex('artists_user_id_idx').on('artists').column('user_id').execute();
  await sql`create index artists_name_trgm_idx on artists using gin (name gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('songs')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('album', 'text')
    .addColumn('genre', 'text')
    .addColumn('duration', 'integer', (c) => c.notNull().check(sql`duration between 1 and 86400`))
    .addColumn('release_year', 'integer', (c) => c.check(sql`release_year between 1000 and 9999`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('songs_title_id_idx').on('songs').columns(['title', 'id']).execute();
  await sql`create index songs_genre_idx on songs (lower(genre), title, id)`.execute(db);
  await sql`create index songs_title_trgm_idx on songs using gin (title gin_trgm_ops)`.execute(db);
  await sql`create index songs_album_trgm_idx on songs using gin (album gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('song_artists')
    .addColumn('song_id', 'uuid', (c) => c.notNull().references('songs.id').onDelete('cascade'))
    .addColumn('artist_id', 'uuid', (c) => c.notNull().references('artists.id').onDelete('cascade'))
    // Order in which the artists were given; links added later go last.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('song_artists_pkey', ['song_id', 'artist_id'])
    .execute();
  await db.schema
    .createIndex('song_artists_artist_id_idx')
    .on('song_artists')
    .columns(['artist_id', 'song_id'])
    .execute();

  await db.schema
    .createTable('playlists')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_public', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('playlists_created_at_id_idx')
    .on('playlists')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('playlists_user_id_created_at_idx')
    .on('playlists')
    .columns(['user_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('playlist_songs')
    .addColumn('playlist_id', 'uuid', (c) => c.notNull().references('playlists.id').onDelete('cascade'))
    .addColumn('song_id', 'uuid', (c) => c.notNull().references('songs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A song is in a playlist at most once; the key doubles as the backstop for concurrent adds.
    .addPrimaryKeyConstraint('playlist_songs_pkey', ['playlist_id', 'song_id'])
    .addUniqueConstraint('playlist_songs_position_key', ['playlist_id', 'position'])
    .execute();
  await db.schema.createIndex('playlist_songs_song_id_idx').on('playlist_songs').column('song_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['playlist_songs', 'playlists', 'song_artists', 'songs', 'artists']) {
    await db.schema.dropTable(table).execute();
  }
}
