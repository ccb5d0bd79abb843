import { emptyOutput } from '../../schemas';
import { authedProcedure, rest, router } from '../../trpc';
import {
  apiKeyIdInput,
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyInput,
  createdApiKeySchema,
  listApiKeysInput,
} from './api-keys.schema';
import * as keys from './api-keys.service';

const SESSION_ONLY = 'Only a signed-in session manages keys: an API key gets 403.';

export const apiKeysRouter = router({
  create: authedProcedure
    .meta(
      rest({
        method: 'POST',
        path: '/api-keys',
        tag: 'api-keys',
        summary: 'Make an API key for a program (its token is shown this once)',
        description:
          'The key acts as you, within its `scopes`, and never beyond what your role allows at the ' +
          `moment of each request. At most 100 keys an account (409 beyond). ${SESSION_ONLY}`,
        status: 201,
        errors: ['FORBIDDEN', 'CONFLICT'],
        // A replayed answer would have to keep the token: the key is made once, never stored in clear.
        traits: { idempotent: false },
      }),
    )
    .input(createApiKeyInput)
    .output(createdApiKeySchema)
    .mutation(({ ctx, input }) => keys.createApiKey(ctx, input)),

  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/api-keys',
        tag: 'api-keys',
        summary: 'Your API keys, oldest first (admins: anyone’s, with `userId`)',
        description: SESSION_ONLY,
        errors: ['FORBIDDEN', 'NOT_FOUND'],
      }),
    )
    .input(listApiKeysInput)
    .output(apiKeyListSchema)
    .query(({ ctx, input }) => keys.listApiKeys(ctx, input)),

  get: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/api-keys/{keyId}',
        tag: 'api-keys',
        summary: 'One of your API keys (admins: anyone’s)',
        description: SESSION_ONLY,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(apiKeyIdInput)
    .output(apiKeySchema)
    .query(({ ctx, input }) => keys.getApiKey(ctx, input.keyId)),

  delete: authedProcedure
    .meta(
      rest({
        method: 'DELETE',
        path: '/api-keys/{keyId}',
        tag: 'api-keys',
        summary: 'Revoke an API key: refused from the next request on, on every instance',
        description: SESSION_ONLY,
        status: 204,
        errors: ['FORBIDDEN'],
      }),
    )
    .input(apiKeyIdInput)
    .output(emptyOutput)
    .mutation(({ ctx, input }) => keys.deleteApiKey(ctx, input.keyId)),
});
