import { generateApiKeyToken } from '@music/auth';
import { type ApiKeyRecord, apiKeys, isUniqueViolation, users, uuidv7 } from '@music/db';
import { AUDITED_FIELDS, changesOf, recordAudit } from '../../audit';
import { AppError, validationError } from '../../errors';
import { type AuthedContext, isAdmin, listPage, loadOr404 } from '../../kernel';
import {
  type ApiKey,
  type CreateApiKeyInput,
  type ListApiKeysInput,
  MAX_KEYS_PER_USER,
  toApiKey,
} from './api-keys.schema';

/**
 * API keys: made and managed only by a signed-in session (the procedures' key check refuses keys
 * here). Your own keys; an admin reads and deletes anyone's. Someone else's key is a 404 to a
 * non-admin, so ids tell nothing.
 */

export async function createApiKey(
  ctx: AuthedContext,
  input: CreateApiKeyInput,
): Promise<ApiKey & { token: string }> {
  const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw validationError([{ field: 'expiresAt', message: 'Must be in the future' }]);
  }
  const userId = ctx.actor.user.id;
  if ((await apiKeys.countApiKeys(ctx.db, userId)) >= MAX_KEYS_PER_USER) {
    throw new AppError(
      'CONFLICT',
      `You have ${MAX_KEYS_PER_USER} API keys; delete one before making another`,
    );
  }
  // A prefix is 54 random bits: a clash is all but impossible, and answered by another draw.
  for (let attempt = 0; ; attempt++) {
    const made = generateApiKeyToken();
    try {
      const row = await ctx.db.transaction().execute(async (trx) => {
        const inserted = await apiKeys.insertApiKey(trx, {
          id: uuidv7(),
          userId,
          name: input.name,
          scopes: input.scopes,
          prefix: made.prefix,
          tokenHash: made.hash,
          expiresAt,
        });
        await recordAudit(trx, ctx, {
          action: 'api_key.created',
          target: { type: 'api_key', id: inserted.id },
          changes: changesOf(null, audited(inserted), AUDITED_FIELDS.api_key),
        });
        return inserted;
      });
      return { ...toApiKey(row), token: made.token };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

const OLDEST_FIRST = [{ column: 'created_at', descending: false }] as const;

export async function listApiKeys(ctx: AuthedContext, input: ListApiKeysInput) {
  const userId = input.userId ?? ctx.actor.user.id;
  if (userId !== ctx.actor.user.id) {
    if (!isAdmin(ctx.actor)) throw new AppError('FORBIDDEN', 'Only an admin may list another user’s keys');
    await loadOr404(userId, (id) => users.findUserById(ctx.db, id), 'User');
  }
  // What this instance saw used is written first, so a listing shows it.
  await ctx.keyUse.flush();
  return listPage(
    input,
    'api-keys',
    OLDEST_FIRST,
    {
      byOffset: (window) => apiKeys.listApiKeys(ctx.db, { userId, ...window }),
      after: (window) => apiKeys.listApiKeysAfter(ctx.db, { userId, ...window }),
    },
    toApiKey,
  );
}

async function loadVisibleKey(ctx: AuthedContext, apiKeyId: string) {
  const key = await loadOr404(apiKeyId, (id) => apiKeys.findApiKey(ctx.db, id), 'API key');
  if (key.user_id !== ctx.actor.user.id && !isAdmin(ctx.actor))
    throw new AppError('NOT_FOUND', 'API key not found');
  return key;
}

export async function getApiKey(ctx: AuthedContext, apiKeyId: string): Promise<ApiKey> {
  await ctx.keyUse.flush();
  return toApiKey(await loadVisibleKey(ctx, apiKeyId));
}

/** Refused from the next request on, on every instance: each request reads the key's row. */
export async function deleteApiKey(ctx: AuthedContext, apiKeyId: string): Promise<void> {
  const key = await loadVisibleKey(ctx, apiKeyId);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await apiKeys.deleteApiKey(trx, key.id))) throw new AppError('NOT_FOUND', 'API key not found');
    await recordAudit(trx, ctx, {
      action: 'api_key.deleted',
      target: { type: 'api_key', id: key.id },
      changes: changesOf(audited(key), null, AUDITED_FIELDS.api_key),
    });
  });
}

/** A key as its audit events name its fields (the API's names, its owner included). */
function audited(row: ApiKeyRecord) {
  const { scopes, prefix, name, expiresAt } = toApiKey(row);
  return { userId: row.user_id, name, scopes, prefix, expiresAt };
}
