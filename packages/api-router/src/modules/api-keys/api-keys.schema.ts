import type { ApiKeyRecord } from '@music/db';
import { z } from 'zod';
import { cursorListOf, dateTime, idParam, listQuery, text, toIso, uuidField } from '../../schemas';
import { SCOPES } from '../../scopes';

export const MAX_KEYS_PER_USER = 100;

export const scopeSchema = z.enum(SCOPES).meta({
  id: 'Scope',
  description:
    'What an API key may do: `catalogue:*` songs, artists and genres; `playlists:*` playlists; ' +
    '`users:*` accounts and profiles; `events:read` the audit trail (admins) and the change feed; ' +
    '`webhooks:write` webhooks. `:read` covers GETs, `:write` everything else.',
});

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string().min(1).max(100),
    scopes: z.array(scopeSchema).min(1).max(SCOPES.length),
    prefix: z
      .string()
      .length(12)
      .meta({ description: 'The token’s first 12 characters, to tell keys apart' }),
    createdAt: dateTime,
    expiresAt: dateTime.nullable().meta({ description: 'When it stops working; null: never' }),
    lastUsedAt: dateTime.nullable().meta({
      description: 'When it was last used (recorded in batches: up to 15 seconds behind); null: never',
    }),
  })
  .meta({ id: 'ApiKey' });

export type ApiKey = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = apiKeySchema
  .extend({
    token: z.string().length(43).meta({
      description:
        'The key itself (`mc_…`): shown this once, stored only as a hash. Send it as `Authorization: Bearer mc_…`.',
    }),
  })
  .meta({ id: 'CreatedApiKey' });

export function toApiKey(row: ApiKeyRecord): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.filter((scope): scope is ApiKey['scopes'][number] =>
      (SCOPES as readonly string[]).includes(scope),
    ),
    prefix: row.prefix,
    createdAt: toIso(row.created_at),
    expiresAt: row.expires_at ? toIso(row.expires_at) : null,
    lastUsedAt: row.last_used_at ? toIso(row.last_used_at) : null,
  };
}

export const createApiKeyInput = z.strictObject({
  name: text(1, 100).meta({ description: '1 to 100 characters: what the key is for' }),
  scopes: z
    .array(scopeSchema)
    .min(1)
    .max(SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope at most once'),
  expiresAt: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'When the key stops working (a future date-time); omitted: never' }),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;

export const apiKeyIdInput = z.strictObject({ keyId: idParam('API key') });

export const listApiKeysInput = z.strictObject({
  ...listQuery,
  userId: uuidField().optional().meta({ description: 'Whose keys (admins only); default: your own' }),
});
export type ListApiKeysInput = z.infer<typeof listApiKeysInput>;

export const apiKeyListSchema = cursorListOf(apiKeySchema);
