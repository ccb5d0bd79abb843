import type { Json } from './components';

/** The ids the examples use, so a path parameter's example names the record in the body next to it. */
export const IDS = {
  user: '01970a3e-5c1d-7b2a-8f3e-2d4c6b8a9e01',
  artistUser: '01970a3e-6d2e-7c3b-8a4f-3e5d7c9b0f06',
  artist: '01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02',
  song: '01970a3f-1a2b-7c3d-8e4f-5a6b7c8d9e03',
  otherSong: '01970a3f-2b3c-7d4e-9f5a-6b7c8d9e0f04',
  playlist: '01970a40-3c4d-7e5f-a06b-7c8d9e0f1a05',
} as const;

const CREATED = '2026-03-14T09:26:53Z';
const UPDATED = '2026-03-15T18:02:11Z';

export const userExample = {
  id: IDS.user,
  username: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'user',
  createdAt: CREATED,
  updatedAt: UPDATED,
};

export const artistExample = {
  id: IDS.artist,
  name: 'The Analytical Engines',
  bio: 'Four-piece from Manchester.\nSynths, drums and a punched-card light show.',
  userId: IDS.artistUser,
  createdAt: CREATED,
  updatedAt: UPDATED,
};

export const songExample = {
  id: IDS.song,
  title: 'Difference Engine',
  album: 'Notes on the Engine',
  genre: 'Synth-pop',
  duration: 242,
  releaseYear: 2024,
  isrc: 'GBAYE2400123',
  externalId: null,
  artistIds: [IDS.artist],
  createdAt: CREATED,
  updatedAt: UPDATED,
};

export const playlistExample = {
  id: IDS.playlist,
  userId: IDS.user,
  name: 'Morning run',
  description: 'Fast, then faster.',
  isPublic: false,
  songIds: [IDS.song, IDS.otherSong],
  songCount: 2,
  createdAt: CREATED,
  updatedAt: UPDATED,
};

/**
 * Hand-written examples of the named schemas; everything else is built from the schema itself
 * (see exampleOf), so an operation added later has a valid example without an entry here.
 */
export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  User: userExample,
  Artist: artistExample,
  Song: songExample,
  Playlist: playlistExample,
  Genre: { name: 'Synth-pop', songCount: 12 },
  Pagination: { page: 1, limit: 20, total: 1 },
  TokenResponse: {
    accessToken:
      'eyJhbGciOiJIUzI1NiIsImtpZCI6IjFhMmIiLCJ0eXAiOiJKV1QifQ.eyJzdWIiOiIwMTk3MGEzZS01YzFkLTdiMmEtOGYzZS0yZDRjNmI4YTllMDEiLCJyb2xlIjoidXNlciJ9.c2lnbmF0dXJl',
    refreshToken: 'rt_7Qm3d9VfK2pL8xZ4nB6cH1sT5wY0aE3j',
    tokenType: 'Bearer',
    expiresIn: 86400,
    user: userExample,
  },
};

/** Path parameters' examples by name: the records the examples above show. */
export const PATH_EXAMPLES: Record<string, string> = {
  userId: IDS.user,
  artistId: IDS.artist,
  songId: IDS.song,
  playlistId: IDS.playlist,
};

const STRING_FORMATS: Record<string, string> = {
  uuid: IDS.song,
  'date-time': CREATED,
  email: 'ada@example.com',
  password: 'correct horse battery staple',
  uri: 'https://api.example.com/v1',
  'uri-reference': '/v1/songs',
};

function stringExample(schema: Json): string {
  const format = typeof schema.format === 'string' ? STRING_FORMATS[schema.format] : undefined;
  if (format) return format;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 100;
  return 'example'.padEnd(Math.max(min, 1), 'e').slice(0, Math.max(max, 0));
}

function numberExample(schema: Json): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
  return Math.min(Math.max(min, 1), max);
}

/**
 * An example value of a schema: the hand-written one of a named schema, the schema's own
 * `example`/`const`/`enum`/`default`, or one built from its type and bounds. Lists show one item.
 */
export function exampleOf(schema: Json | undefined, schemas: Record<string, Json>, depth = 0): unknown {
  if (!schema || depth > 10) return undefined;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    if (name in SCHEMA_EXAMPLES) return structuredClone(SCHEMA_EXAMPLES[name]);
    return exampleOf(schemas[name], schemas, depth + 1);
  }
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) {
    const chosen = variants.find((v) => v.type !== 'null') ?? variants[0];
    return exampleOf(chosen, schemas, depth + 1);
  }
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, exampleOf(value, schemas, depth + 1)]),
      );
    }
    case 'array':
      return schema.maxItems === 0 ? [] : [exampleOf(schema.items as Json, schemas, depth + 1)];
    case 'integer':
    case 'number':
      return numberExample(schema);
    case 'boolean':
      return false;
    case 'string':
      return stringExample(schema);
    default:
      return null;
  }
}
